/** @module Tests of subscriptions/listen: the filter, the acknowledgement, what passes, and the stream's messages. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  acknowledgedFilter,
  filterAdmits,
  listenEndResult,
  listenOfferOf,
  onListenStream,
  parseListenParams,
  subscriptionsAcknowledged,
} from './subscriptions.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';

test('listen params are read strictly, unknown keys ignored', () => {
  const cases: [unknown, unknown][] = [
    [{ notifications: {} }, {}],
    [{ notifications: { toolsListChanged: true, promptsListChanged: false } }, { toolsListChanged: true, promptsListChanged: false }],
    [{ notifications: { resourceSubscriptions: ['file:///a', 'file:///a', 'file:///b'] } }, { resourceSubscriptions: ['file:///a', 'file:///b'] }],
    [{ notifications: { toolsListChanged: true, futureThing: true } }, { toolsListChanged: true }],
    [{ notifications: { toolsListChanged: 'yes' } }, 'invalid'],
    [{ notifications: { resourceSubscriptions: 'file:///a' } }, 'invalid'],
    [{ notifications: { resourceSubscriptions: [1] } }, 'invalid'],
    [{ notifications: [] }, 'invalid'],
    [{}, 'invalid'],
    [undefined, 'invalid'],
  ];
  for (const [params, expected] of cases) {
    const parsed = parseListenParams(params);
    assert.deepEqual(parsed.ok ? parsed.filter : 'invalid', expected, JSON.stringify(params));
  }
});

test('the acknowledgement keeps only what was asked and can be delivered', () => {
  const everything = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['file:///a'] };
  const cases: [unknown, unknown, unknown][] = [
    [everything, { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true } }, everything],
    [everything, { tools: { listChanged: true }, resources: { subscribe: true } }, { toolsListChanged: true, resourceSubscriptions: ['file:///a'] }],
    [everything, { tools: {}, prompts: { listChanged: false } }, {}],
    [{ toolsListChanged: false, resourceSubscriptions: [] }, { tools: { listChanged: true }, resources: { subscribe: true } }, {}],
    [{}, undefined, {}],
  ];
  for (const [requested, capabilities, expected] of cases) {
    assert.deepEqual(acknowledgedFilter(requested as never, listenOfferOf(capabilities)), expected, JSON.stringify(capabilities));
  }
});

test('a filter admits only the notifications it names', () => {
  const filter = { toolsListChanged: true, resourceSubscriptions: ['file:///a'] };
  const cases: [string, Record<string, unknown> | undefined, boolean][] = [
    ['notifications/tools/list_changed', undefined, true],
    ['notifications/prompts/list_changed', undefined, false],
    ['notifications/resources/list_changed', undefined, false],
    ['notifications/resources/updated', { uri: 'file:///a' }, true],
    ['notifications/resources/updated', { uri: 'file:///b' }, false],
    ['notifications/resources/updated', undefined, false],
    ['notifications/progress', { progressToken: 1, progress: 1 }, false],
    ['notifications/message', { level: 'info', data: 'x' }, false],
  ];
  for (const [method, params, admitted] of cases) assert.equal(filterAdmits(filter, params === undefined ? { method } : { method, params }), admitted, `${method} ${JSON.stringify(params)}`);
});

test('every message of a listen stream names the listen request', () => {
  assert.deepEqual(subscriptionsAcknowledged('L1', { toolsListChanged: true }), {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { toolsListChanged: true }, _meta: { [SUB]: 'L1' } },
  });
  const original = Object.freeze({ method: 'notifications/resources/updated', params: Object.freeze({ uri: 'file:///a', _meta: Object.freeze({ traceparent: 't' }) }) });
  assert.deepEqual(onListenStream(original, 7), { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///a', _meta: { traceparent: 't', [SUB]: 7 } } });
  assert.deepEqual(onListenStream({ method: 'notifications/tools/list_changed' }, 7), { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: 7 } } });
  assert.deepEqual(listenEndResult('L1'), { resultType: 'complete', _meta: { [SUB]: 'L1' } });
});
