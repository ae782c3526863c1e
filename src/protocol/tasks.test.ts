/** @module Tests of the Tasks (2025-11-25) rules: who takes tasks, what the gateway offers, task-only tools, task ids in `_meta`. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  createdTaskId,
  gatewayTaskCapabilities,
  hostTakesTasks,
  isTaskOnlyTool,
  RELATED_TASK_META,
  relatedTaskId,
  upstreamRunsToolTasks,
  withoutTaskParam,
  withRelatedTaskId,
} from './tasks.js';

test('only a 2025-11-25 host that declared tasks takes them', () => {
  assert.equal(hostTakesTasks({ tasks: {} }, '2025-11-25'), true);
  assert.equal(hostTakesTasks({ tasks: { list: {} } }, '2025-11-25'), true);
  assert.equal(hostTakesTasks({}, '2025-11-25'), false);
  assert.equal(hostTakesTasks({ tasks: true }, '2025-11-25'), false);
  for (const older of ['2024-11-05', '2025-03-26', '2025-06-18', '2026-07-28']) assert.equal(hostTakesTasks({ tasks: {} }, older), false, older);
});

test('the gateway offers tasks merged from the upstreams that run tool tasks, else none', () => {
  const runner = { tasks: { list: {}, requests: { tools: { call: {} } } } };
  const canceller = { tasks: { cancel: {}, requests: { tools: { call: {} } } } };
  const listsOnly = { tasks: { list: {}, cancel: {} } };
  assert.equal(upstreamRunsToolTasks(runner), true);
  assert.equal(upstreamRunsToolTasks(listsOnly), false);
  assert.deepEqual(gatewayTaskCapabilities([runner, { tools: {} }]), { list: {}, requests: { tools: { call: {} } } });
  assert.deepEqual(gatewayTaskCapabilities([runner, canceller]), { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  assert.equal(gatewayTaskCapabilities([listsOnly, { tools: {} }]), undefined, 'an upstream that runs no tool tasks offers nothing to relay');
  assert.equal(gatewayTaskCapabilities([]), undefined);
});

test('task-only tools, and calls without their task', () => {
  assert.equal(isTaskOnlyTool({ name: 'a', execution: { taskSupport: 'required' } }), true);
  assert.equal(isTaskOnlyTool({ name: 'b', execution: { taskSupport: 'optional' } }), false);
  assert.equal(isTaskOnlyTool({ name: 'c' }), false);
  assert.deepEqual(withoutTaskParam({ name: 'a', arguments: {}, task: { ttl: 5 } }), { name: 'a', arguments: {} });
  const plain = { name: 'a' };
  assert.equal(withoutTaskParam(plain), plain);
});

test('task ids in a CreateTaskResult and in _meta related-task', () => {
  assert.equal(createdTaskId({ task: { taskId: 't1', status: 'working' } }), 't1');
  assert.equal(createdTaskId({ content: [] }), undefined);
  const result = { content: [], _meta: { [RELATED_TASK_META]: { taskId: 'up-1' }, 'vendor/x': 1 } };
  assert.equal(relatedTaskId(result), 'up-1');
  assert.equal(relatedTaskId({ content: [] }), undefined);
  assert.deepEqual(withRelatedTaskId(result, 'host-1')._meta, { [RELATED_TASK_META]: { taskId: 'host-1' }, 'vendor/x': 1 });
});
