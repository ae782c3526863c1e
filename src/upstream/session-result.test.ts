/** @module Tests of the onResult hook of UpstreamSession: a result is seen before anything the upstream sent after it is handled. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { httpUpstreamSpec } from '../config/testing/upstream-spec.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { Transport } from './transport/transport.js';
import { silentLogger } from '../core/log.js';
import { UpstreamSession } from './session.js';

/** A transport that records what the session sends; the test delivers the upstream's messages itself. */
function scriptedTransport(): Transport & { sent: JsonRpcMessage[] } {
  const sent: JsonRpcMessage[] = [];
  return { sent, start: async () => undefined, send: async (message: JsonRpcMessage) => void sent.push(message), close: async () => undefined };
}

test('onResult sees the result synchronously, before a notification delivered right after it is handled', async () => {
  const transport = scriptedTransport();
  const events: string[] = [];
  const session = new UpstreamSession(
    httpUpstreamSpec(),
    transport,
    { onRequest() {}, onNotification: (_session, message) => void events.push(`notification ${message.method}`), onClose() {} },
    silentLogger,
  );
  const call = session.request('tools/call', { name: 'report', task: {} }, { onResult: (result) => void events.push(`onResult ${JSON.stringify(result)}`) });
  const result = { task: { taskId: 'task-1', status: 'working' } };
  // Both in one burst, as one chunk of a stdio stream delivers them.
  transport.onmessage?.({ jsonrpc: '2.0', id: 1, result });
  transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: { taskId: 'task-1', status: 'completed' } });
  assert.deepEqual(events, [`onResult ${JSON.stringify(result)}`, 'notification notifications/tasks/status']);
  assert.deepEqual(await call, result);
});
