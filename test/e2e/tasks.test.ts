/**
 * @module e2e/tasks.test: MCP Tasks (2025-11-25) through a real gateway: relayed for hosts that declared `tasks` (task ids
 * mapped per host session, status notifications to the owner only, tasks/cancel to the right upstream), hidden from
 * hosts that did not (task-only tools not listed, `task` stripped from their calls).
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { REPO_ROOT, TSX_FLAGS } from './harness/paths.js';
import { RawHost } from './harness/raw-host.js';
import type { MessageReader, WireMessage } from './harness/sse-reader.js';
import { toolText } from './harness/tool-results.js';

const TASKS_UPSTREAM_MAIN = fileURLToPath(new URL('../fixtures/tasks-upstream/main.ts', import.meta.url));
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** A host that can take tasks (client side: list and cancel) and answer form elicitations. */
const TASK_HOST = { capabilities: { tasks: { list: {}, cancel: {} }, elicitation: {} } };

function tasksUpstream(sharing: 'shared' | 'per-session'): Record<string, unknown> {
  return { command: process.execPath, args: [...TSX_FLAGS, TASKS_UPSTREAM_MAIN], cwd: REPO_ROOT, sharing };
}

function toolNames(response: WireMessage): string[] {
  const tools = (response.result?.tools ?? []) as { name: string }[];
  return tools.map((tool) => tool.name);
}

function taskOf(response: WireMessage): Record<string, unknown> {
  const task = response.result?.task as Record<string, unknown> | undefined;
  assert.ok(task && typeof task.taskId === 'string', `a CreateTaskResult, got ${JSON.stringify(response)}`);
  return task;
}

function statusFor(taskId: unknown): (message: WireMessage) => boolean {
  return (message) => message.method === 'notifications/tasks/status' && message.params?.taskId === taskId;
}

describe('MCP Tasks (2025-11-25): relayed for hosts that declared them, hidden from the others', () => {
  let gateway: RunningGateway;
  let withTasks: RawHost;
  let without: RawHost;
  let other: RawHost;
  /** Declared tasks, but in a revision that has none: as if it had not. */
  let older: RawHost;
  let ownerStream: MessageReader;
  let bystanders: MessageReader[];
  before(async () => {
    // Same fixture twice: prefix-on-conflict exposes jobs_* (one shared upstream session) and more_* (one per host).
    gateway = await startGateway({ upstreams: { jobs: tasksUpstream('shared'), more: tasksUpstream('per-session') } });
    [withTasks, without, other] = await Promise.all([RawHost.connect(gateway.url, TASK_HOST), RawHost.connect(gateway.url), RawHost.connect(gateway.url, TASK_HOST)]);
    older = await RawHost.connect(gateway.url, { ...TASK_HOST, protocolVersion: '2025-06-18' });
    [ownerStream, ...bystanders] = await Promise.all([withTasks.openGetStream(), without.openGetStream(), other.openGetStream()]);
  });
  after(async () => {
    await Promise.all([withTasks, without, other, older].map((host) => host?.close()));
    await gateway?.stop();
  });

  test('the gateway offers tasks only to the host that declared them', () => {
    const offered = withTasks.initializeResult.capabilities as Record<string, unknown>;
    assert.deepEqual(offered.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
    assert.equal((without.initializeResult.capabilities as Record<string, unknown>).tasks, undefined);
    assert.equal(older.protocolVersion, '2025-06-18');
    assert.equal((older.initializeResult.capabilities as Record<string, unknown>).tasks, undefined);
  });

  test('a 2025-06-18 host that declared tasks is treated as one that did not', async () => {
    assert.deepEqual(toolNames(await older.call(1, 'tools/list')).sort(), ['jobs_echo', 'more_echo']);
    const echoed = await older.call(2, 'tools/call', { name: 'more_echo', arguments: { text: 'old' }, task: {} });
    assert.equal(toolText(echoed), 'echo: old (task param absent)');
    assert.equal((await older.call(3, 'tasks/list')).error?.code, -32601);
  });

  test('a host without tasks: task-only tools are hidden, task is stripped from its calls, tasks/* is -32601', async () => {
    const names = toolNames(await without.call(1, 'tools/list'));
    assert.deepEqual(names.sort(), ['jobs_echo', 'more_echo']);
    const hidden = await without.call(2, 'tools/call', { name: 'jobs_report', arguments: { text: 'x' } });
    assert.equal(hidden.error?.code, -32602, 'a hidden tool is an unknown tool');
    for (const [id, tool] of [[3, 'jobs_echo'], [4, 'more_echo']] as const) {
      const echoed = await without.call(id, 'tools/call', { name: tool, arguments: { text: 'hi' }, task: { ttl: 60_000 } });
      assert.equal(toolText(echoed), 'echo: hi (task param absent)', `${tool}: the call ran without a task`);
    }
    const get = await without.call(5, 'tasks/get', { taskId: 'task-1' });
    assert.equal(get.error?.code, -32601);
  });

  test('a host with tasks: the task-only tools are listed, a task call creates a task it can read', async () => {
    assert.deepEqual(toolNames(await withTasks.call(10, 'tools/list')).sort(), [
      'jobs_confirm', 'jobs_echo', 'jobs_hold', 'jobs_report', 'more_confirm', 'more_echo', 'more_hold', 'more_report',
    ]);
    const created = taskOf(await withTasks.call(11, 'tools/call', { name: 'jobs_report', arguments: { text: 'quarterly' }, task: { ttl: 60_000 } }));
    const status = await ownerStream.until(statusFor(created.taskId));
    assert.equal(status.params?.status, 'completed');
    const got = await withTasks.call(12, 'tasks/get', { taskId: created.taskId });
    assert.equal(got.result?.taskId, created.taskId);
    assert.equal(got.result?.status, 'completed');
    const result = await withTasks.call(13, 'tasks/result', { taskId: created.taskId });
    assert.equal(toolText(result), 'report: quarterly');
    assert.deepEqual((result.result?._meta as Record<string, unknown>)[RELATED_TASK], { taskId: created.taskId });

    // The per-session upstream hands out the same upstream ids: the host's ids still differ.
    const second = taskOf(await withTasks.call(14, 'tools/call', { name: 'more_report', arguments: { text: 'weekly' }, task: {} }));
    assert.notEqual(second.taskId, created.taskId);
    await ownerStream.until(statusFor(second.taskId));
    assert.equal(toolText(await withTasks.call(15, 'tasks/result', { taskId: second.taskId })), 'report: weekly');
    const listed = await withTasks.call(16, 'tasks/list');
    const ids = ((listed.result?.tasks ?? []) as { taskId: string }[]).map((task) => task.taskId);
    assert.deepEqual(ids.sort(), [created.taskId, second.taskId].sort());
  });

  test("a task's question comes on the stream of its tasks/result, naming the task as the host knows it", async () => {
    const created = taskOf(await withTasks.call(40, 'tools/call', { name: 'more_confirm', arguments: { message: 'Ship it?' }, task: {} }));
    await ownerStream.until((message) => statusFor(created.taskId)(message) && message.params?.status === 'input_required');
    const stream = await withTasks.request({ jsonrpc: '2.0', id: 41, method: 'tasks/result', params: { taskId: created.taskId } });
    const question = await stream.until((message) => message.method === 'elicitation/create');
    assert.equal(question.params?.message, 'Ship it?');
    assert.deepEqual((question.params?._meta as Record<string, unknown>)[RELATED_TASK], { taskId: created.taskId });
    assert.equal((await withTasks.answer(question.id, { action: 'accept', content: { ok: true } })).status, 202);
    const result = await stream.until((message) => message.id === 41);
    assert.equal(toolText(result), 'confirmed: accept');
    assert.deepEqual((result.result?._meta as Record<string, unknown>)[RELATED_TASK], { taskId: created.taskId });
  });

  test('another host can neither read, list nor cancel those tasks, nor hear their status', async () => {
    const own = taskOf(await withTasks.call(20, 'tools/call', { name: 'jobs_hold', arguments: {}, task: {} }));
    for (const [id, method] of [[21, 'tasks/get'], [22, 'tasks/result'], [23, 'tasks/cancel']] as const) {
      const answer = await other.call(id, method, { taskId: own.taskId });
      assert.equal(answer.error?.code, -32602, `${method} of a foreign task id`);
    }
    // The upstream's own id is no better.
    assert.equal((await other.call(24, 'tasks/get', { taskId: 'task-1' })).error?.code, -32602);
    assert.deepEqual((await other.call(25, 'tasks/list')).result?.tasks, []);
    const stillWorking = await withTasks.call(26, 'tasks/get', { taskId: own.taskId });
    assert.equal(stillWorking.result?.status, 'working', 'the foreign cancel did not reach the upstream');

    // tasks/cancel of its own task reaches the (shared) upstream; the status goes to this host only.
    const cancelled = await withTasks.call(27, 'tasks/cancel', { taskId: own.taskId });
    assert.equal(cancelled.result?.taskId, own.taskId);
    assert.equal(cancelled.result?.status, 'cancelled');
    await ownerStream.until((message) => statusFor(own.taskId)(message) && message.params?.status === 'cancelled');
    assert.equal((await withTasks.call(28, 'tasks/get', { taskId: own.taskId })).result?.status, 'cancelled');
    assert.equal((await withTasks.call(29, 'tasks/cancel', { taskId: own.taskId })).error?.code, -32602, 'a terminal task cannot be cancelled');

    // Everything the gateway sent the owner has been sent; the others' GET streams got no task status at all.
    await Promise.all([without.call(30, 'ping'), other.call(30, 'ping')]);
    for (const stream of bystanders) {
      assert.deepEqual(stream.seen.filter((message) => message.method === 'notifications/tasks/status'), []);
    }
  });
});
