/** @module The listen stream asks for the lists an upstream marks listChanged, and only on a modern, open session. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { silentLogger } from '../core/log.js';
import type { ListenTarget } from './listen.js';
import { listenNotifications, openListenStream } from './listen.js';

test('listenNotifications names the lists marked listChanged, or none', () => {
  assert.deepEqual(listenNotifications({ tools: { listChanged: true }, prompts: { listChanged: false }, resources: { listChanged: true }, logging: {} }), {
    toolsListChanged: true,
    resourcesListChanged: true,
  });
  assert.equal(listenNotifications({ tools: {}, prompts: { listChanged: 'yes' } }), undefined);
  assert.equal(listenNotifications({}), undefined);
});

test('openListenStream requests subscriptions/listen without a timeout on a modern, open session only', () => {
  const sent: [string, JsonObject | undefined, { timeoutMs: number }][] = [];
  const target = (era: 'legacy' | 'modern', closed: boolean, serverCapabilities: JsonObject): ListenTarget => ({
    key: 'u#1',
    era,
    closed,
    serverCapabilities,
    request: (method, params, options) => {
      sent.push([method, params, options]);
      return Promise.resolve({});
    },
  });
  const caps = { tools: { listChanged: true } };
  openListenStream(target('legacy', false, caps), silentLogger);
  openListenStream(target('modern', true, caps), silentLogger);
  openListenStream(target('modern', false, { tools: {} }), silentLogger);
  assert.deepEqual(sent, []);
  openListenStream(target('modern', false, caps), silentLogger);
  assert.deepEqual(sent, [['subscriptions/listen', { notifications: { toolsListChanged: true } }, { timeoutMs: 0 }]]);
});
