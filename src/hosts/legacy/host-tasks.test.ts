/** @module Tests of HostTasks: a host's tasks under ids of its own, never another session's, forgotten with their upstream. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { RELATED_TASK_META } from '../../protocol/tasks.js';
import { HostTasks } from './host-tasks.js';
import type { UpstreamSession } from '../../upstream/session.js';

/** Just what HostTasks reads of an upstream session: its key and whether it is closed. */
function upstream(key: string): UpstreamSession & { closed: boolean } {
  return { key, closed: false } as unknown as UpstreamSession & { closed: boolean };
}

function unknownTask(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'GW_ERR_UNKNOWN_TASK';
}

test('the same upstream id on two upstream sessions gets two host ids, each routed to its own session', () => {
  const tasks = new HostTasks();
  const [a, b] = [upstream('a#1'), upstream('b#2')];
  const created = tasks.createdToHost(a, { task: { taskId: 'task-1', status: 'working' } });
  const hostA = (created.task as { taskId: string }).taskId;
  const hostB = tasks.adopt(b, 'task-1');
  assert.notEqual(hostA, 'task-1');
  assert.notEqual(hostA, hostB);
  assert.equal(tasks.adopt(a, 'task-1'), hostA, 'adopting again keeps the id');
  assert.deepEqual(tasks.route(hostA), { upstream: a, taskId: 'task-1', hostId: hostA });
  assert.equal(tasks.route(hostB).upstream, b);
});

test("an unknown id, an upstream's own id or another host's id is GW_ERR_UNKNOWN_TASK", () => {
  const mine = new HostTasks();
  const theirs = new HostTasks();
  const shared = upstream('shared#1');
  const theirId = theirs.adopt(shared, 'task-7');
  assert.throws(() => mine.route(theirId), unknownTask);
  assert.throws(() => mine.route('task-7'), unknownTask);
  assert.throws(() => mine.route(undefined), unknownTask);
  assert.equal(mine.taskToHost(shared, { taskId: 'task-7', status: 'working' }), undefined, 'its status is not for this host');
  assert.deepEqual(theirs.taskToHost(shared, { taskId: 'task-7', status: 'working' }), { taskId: theirId, status: 'working' });
});

test('questions and results of a task name it as the host knows it', () => {
  const tasks = new HostTasks();
  const up = upstream('a#1');
  const hostId = tasks.adopt(up, 'task-1');
  const request = { jsonrpc: '2.0' as const, id: 3, method: 'elicitation/create', params: { message: 'ok?', _meta: { [RELATED_TASK_META]: { taskId: 'task-1' } } } };
  assert.deepEqual(tasks.requestToHost(up, request).params?._meta, { [RELATED_TASK_META]: { taskId: hostId } });
  const other = { ...request, params: { message: 'ok?', _meta: { [RELATED_TASK_META]: { taskId: 'task-2' } } } };
  assert.equal(tasks.requestToHost(up, other), other, 'a task that is not this host’s is left alone');
});

test('tasks are forgotten with their upstream session, or when its full list no longer shows them', () => {
  const tasks = new HostTasks();
  const [a, b] = [upstream('a#1'), upstream('b#2')];
  const [one, two] = [tasks.adopt(a, 'task-1'), tasks.adopt(a, 'task-2')];
  const three = tasks.adopt(b, 'task-1');
  tasks.keepOnly(a, new Set(['task-2']));
  assert.throws(() => tasks.route(one), unknownTask);
  assert.equal(tasks.route(two).taskId, 'task-2');
  b.closed = true;
  assert.deepEqual(tasks.upstreams(), [a]);
  assert.throws(() => tasks.route(three), unknownTask, 'the upstream session ended');
  tasks.dropUpstream(a);
  assert.throws(() => tasks.route(two), unknownTask);
});

test('a host session keeps at most maxTasks tasks: past it the oldest is forgotten (GW_ERR_UNKNOWN_TASK), so the table stays bounded', () => {
  const tasks = new HostTasks(3);
  const a = upstream('a#1');
  const ids = ['t1', 't2', 't3', 't4'].map((taskId) => tasks.adopt(a, taskId));
  assert.throws(() => tasks.route(ids[0]), unknownTask, 'the oldest was forgotten');
  assert.equal(tasks.hostIdOf(a, 't1'), undefined);
  for (const id of ids.slice(1)) assert.equal(tasks.route(id).hostId, id);
});

test("host sessions that made no task yet share nothing: one's first task is never another's", () => {
  const [first, second] = [new HostTasks(), new HostTasks()];
  const a = upstream('a#1');
  const hostId = first.adopt(a, 'task-1');
  assert.throws(() => second.route(hostId), unknownTask);
  assert.equal(second.adopt(a, 'task-2'), hostId, 'the second host numbers its own tasks from 1 too');
  assert.deepEqual(first.route(hostId), { upstream: a, taskId: 'task-1', hostId });
  assert.deepEqual(second.route(hostId), { upstream: a, taskId: 'task-2', hostId });
});
