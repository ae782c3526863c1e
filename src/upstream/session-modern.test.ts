/** @module Tests of a 2026-07-28 upstream session: cancelling by closing the stream, answers to embedded questions kept local. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ProtocolError } from '../protocol/errors.js';
import type { JsonRpcId, JsonRpcMessage } from '../protocol/jsonrpc.js';
import { upstreamEnvelope } from '../protocol/request-envelope.js';
import type { Transport } from './transport/transport.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import { silentLogger } from '../core/log.js';
import { spec } from '../app/testing/gateway-doubles.js';
import type { LocalAnswer } from './local-answers.js';
import { UpstreamSession } from './session.js';

const ENVELOPE = upstreamEnvelope({ hostCapabilities: {}, hostRevision: '2025-11-25' });
const HANDLERS = { onRequest() {}, onNotification() {}, onClose() {} };

/** A transport that never answers and records what it is sent and asked to abort; `abortable: false` is a stdio-like one. */
function silentTransport(abortable: boolean) {
  const sent: JsonRpcMessage[] = [];
  const aborted: JsonRpcId[] = [];
  const transport: Transport = {
    start: async () => undefined,
    send: async (message) => void sent.push(message),
    close: async () => undefined,
    ...(abortable ? { abortRequest: (id: JsonRpcId) => (aborted.push(id), true) } : {}),
  };
  return { transport, sent, aborted };
}

function modernSession(abortable: boolean, timeoutMs = 2000) {
  const wire = silentTransport(abortable);
  const session = new UpstreamSession(spec('desk', 'per-session', { requestTimeoutMs: timeoutMs }), wire.transport, HANDLERS, silentLogger, { envelope: () => ENVELOPE });
  session.adoptModern({ capabilities: { tools: {} }, serverInfo: undefined, instructions: undefined });
  return { session, ...wire };
}

const notifications = (sent: JsonRpcMessage[]) => sent.filter((m) => 'method' in m && !('id' in m));

test('cancelling a 2026-07-28 call over HTTP closes its stream and sends no notification', async () => {
  const { session, sent, aborted } = modernSession(true);
  const call = session.request('tools/call', { name: 'slow' });
  session.cancel(1, 'the host cancelled');
  await assert.rejects(call, (error) => error instanceof GatewayError && error.code === 'GW_ERR_REQUEST_CANCELLED');
  assert.deepEqual(aborted, [1]);
  assert.deepEqual(notifications(sent), []);
});

test('over stdio (no stream to close) it is notifications/cancelled, as before', async () => {
  const { session, sent } = modernSession(false);
  const call = session.request('tools/call', { name: 'slow' });
  session.cancel(1, 'the host cancelled');
  await assert.rejects(call);
  assert.deepEqual(notifications(sent), [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'the host cancelled' } }]);
});

test('a timed-out 2026-07-28 call is cancelled the same way', async () => {
  const { session, sent, aborted } = modernSession(true, 20);
  const call = session.request('tools/call', { name: 'slow' }).then(() => undefined, (error: unknown) => error);
  await new Promise((r) => setTimeout(r, 60)); // the session's timers do not hold the process open
  const error = await call;
  assert.ok(error instanceof GatewayError && error.code === 'GW_ERR_UPSTREAM_TIMEOUT', String(error));
  assert.deepEqual(aborted, [1]);
  assert.deepEqual(notifications(sent), []);
});

test('a legacy session cancels with the notification even over a transport that could close the stream (a dropped stream is no cancellation there)', async () => {
  const wire = silentTransport(true);
  const session = new UpstreamSession(spec('desk'), wire.transport, HANDLERS, silentLogger);
  const call = session.request('tools/call', { name: 'slow' });
  session.cancel(1, 'bye');
  await assert.rejects(call);
  assert.deepEqual(wire.aborted, []);
  assert.equal(notifications(wire.sent).length, 1);
});

test('every request of a modern session carries the envelope, a request\'s own one first; a legacy session\'s never', async () => {
  const { session, sent } = modernSession(true);
  void session.request('tools/list', undefined).catch(() => undefined);
  const own = upstreamEnvelope({ hostCapabilities: { sampling: {} }, hostRevision: '2025-11-25', logLevel: 'info' });
  void session.request('tools/call', { name: 'x', _meta: { progressToken: 'kept' } }, { envelope: own }).catch(() => undefined);
  const [list, call] = sent as unknown as { params: { _meta: Record<string, unknown> } }[];
  assert.deepEqual(list?.params, { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } });
  assert.deepEqual(call?.params._meta, {
    progressToken: 'kept',
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
    'io.modelcontextprotocol/logLevel': 'info',
  });
  await session.close();

  const legacy = silentTransport(true);
  const old = new UpstreamSession(spec('desk'), legacy.transport, HANDLERS, silentLogger, { envelope: () => ENVELOPE });
  void old.request('tools/list', undefined).catch(() => undefined);
  assert.deepEqual(legacy.sent, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
  await old.close();
});

test('answers to embedded questions stay local; a modern upstream is never sent a response', async () => {
  const { session, sent } = modernSession(true);
  const got: LocalAnswer[] = [];
  session.answerLocally('sb-in-1', (answer) => got.push(answer));
  session.answerLocally('sb-in-2', (answer) => got.push(answer));
  assert.equal(session.isLocalQuestion('sb-in-1'), true);
  session.respond('sb-in-1', { action: 'accept', content: { ok: true } });
  session.respond('sb-in-1', { action: 'decline' }); // a second answer goes nowhere
  session.respondError('sb-in-2', new ProtocolError(-1, 'no'));
  session.respond('up-7', { action: 'accept' }); // no such question: dropped, never sent
  assert.deepEqual(got, [{ result: { action: 'accept', content: { ok: true } } }, { error: { code: -1, message: 'no' } }]);
  assert.equal(session.isLocalQuestion('sb-in-1'), false);
  assert.deepEqual(sent, []);
});

test('a session that closes fails the embedded questions still open; a forgotten one is dropped', async () => {
  const { session } = modernSession(true);
  const got: LocalAnswer[] = [];
  session.answerLocally('sb-in-1', (answer) => got.push(answer));
  session.answerLocally('sb-in-2', (answer) => got.push(answer));
  session.forgetLocal('sb-in-2');
  await session.close();
  assert.equal(got.length, 1);
  const [only] = got;
  assert.ok(only && 'error' in only);
  assert.deepEqual(only.error.data, { reason: 'GW_ERR_UPSTREAM_CLOSED' });
});
