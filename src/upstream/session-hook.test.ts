/** @module Tests of the upstream session's instrumentation hook: every request it sends is reported once, timed, with its outcome. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { UpstreamSpec } from '../config/types.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { Transport } from './transport/transport.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { Logger } from '../core/log.js';
import { loggerFrom, silentLogger } from '../core/log.js';
import { FakeRpcError, fakeUpstreamFactory } from './testing/fake-upstream.js';
import type { UpstreamHandlers, UpstreamRequestOutcome } from './session.js';
import { UpstreamSession } from './session.js';

const SPEC = {
  kind: 'streamable-http',
  name: 'desk',
  url: 'http://127.0.0.1:1/mcp',
  headers: {},
  sharing: 'per-session',
  lists: 'shared',
  tools: { deny: [], rename: {} },
  requestTimeoutMs: 5000,
  connectTimeoutMs: 5000,
  era: 'legacy',
  inputRequired: { maxRounds: 8, deadlineMs: 5000 },
} satisfies UpstreamSpec;

const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };

interface Done {
  method: string;
  seconds: number;
  outcome: UpstreamRequestOutcome;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new Promise<never>(() => undefined);

function handlersRecording(done: Done[], extra: Partial<UpstreamHandlers> = {}): UpstreamHandlers {
  return {
    onRequest() {},
    onNotification() {},
    onClose() {},
    onRequestDone(session, method, seconds, outcome) {
      assert.equal(session.spec.name, 'desk');
      done.push({ method, seconds, outcome });
    },
    ...extra,
  };
}

async function connected(done: Done[], logger: Logger = silentLogger, extra: Partial<UpstreamHandlers> = {}) {
  const factory = fakeUpstreamFactory({
    quick: () => ({ content: [] }),
    slow: async () => {
      await sleep(40);
      return { content: [] };
    },
    broken: () => {
      throw new FakeRpcError({ code: -32000, message: 'broken' });
    },
    hang: never,
  });
  const session = new UpstreamSession(SPEC, factory.open(), handlersRecording(done, extra), logger);
  await session.connect(INIT);
  const server = factory.servers[0];
  assert.ok(server);
  return { session, server };
}

const call = (session: UpstreamSession, name: string, options = {}) => session.request('tools/call', { name, arguments: {} }, options);

test('a result is ok, an error response is error, each timed from send to answer', async () => {
  const done: Done[] = [];
  const { session } = await connected(done);
  assert.deepEqual(done.map(({ method, outcome }) => [method, outcome]), [['initialize', 'ok']]);
  await call(session, 'quick');
  await call(session, 'slow');
  await assert.rejects(call(session, 'broken'), /broken/);
  await assert.rejects(session.request('no/such/method', {}), /Method not found/);
  assert.deepEqual(done.slice(1).map(({ method, outcome }) => [method, outcome]), [
    ['tools/call', 'ok'],
    ['tools/call', 'ok'],
    ['tools/call', 'error'],
    ['no/such/method', 'error'],
  ]);
  const slow = done[2]?.seconds ?? 0;
  assert.ok(slow >= 0.035 && slow < 5, `slow call took ${slow} s`);
  assert.ok((done[1]?.seconds ?? 1) < slow, 'the quick call is timed shorter than the slow one');
  await session.close();
});

test('a call that gets no answer in time is a timeout; one we cancel is cancelled', async () => {
  const done: Done[] = [];
  const { session } = await connected(done);
  const timedOut = assert.rejects(call(session, 'hang', { timeoutMs: 30 }), (e: unknown) => e instanceof GatewayError && e.code === 'GW_ERR_UPSTREAM_TIMEOUT');
  await Promise.all([timedOut, sleep(100)]); // the session's timers are unref'd: keep the loop alive meanwhile
  let id = -1;
  const cancelled = call(session, 'hang', { onId: (upstreamId: number) => (id = upstreamId) });
  session.cancel(id, 'the host cancelled');
  await assert.rejects(cancelled, (e: unknown) => e instanceof GatewayError && e.code === 'GW_ERR_REQUEST_CANCELLED');
  assert.deepEqual(done.slice(1).map(({ outcome }) => outcome), ['timeout', 'cancelled']);
  assert.ok((done[1]?.seconds ?? 0) >= 0.025, 'the timeout is timed');
  await session.close();
});

test('calls cut off by the connection ending are errors, reported once each; a closed session sends and reports nothing', async () => {
  const done: Done[] = [];
  const { session, server } = await connected(done);
  const first = call(session, 'hang');
  const second = call(session, 'hang');
  await server.crash();
  await assert.rejects(first, (e: unknown) => e instanceof GatewayError && e.code === 'GW_ERR_UPSTREAM_CLOSED');
  await assert.rejects(second, (e: unknown) => e instanceof GatewayError && e.code === 'GW_ERR_UPSTREAM_CLOSED');
  await assert.rejects(call(session, 'quick'), (e: unknown) => e instanceof GatewayError && e.code === 'GW_ERR_UPSTREAM_CLOSED');
  assert.deepEqual(done.slice(1).map(({ outcome }) => outcome), ['error', 'error']);
});

test('calls still pending when we close the session are cancelled', async () => {
  const done: Done[] = [];
  const { session } = await connected(done);
  const pending = call(session, 'hang');
  await session.close();
  await assert.rejects(pending, (e: unknown) => e instanceof GatewayError && e.code === 'GW_ERR_UPSTREAM_CLOSED');
  assert.deepEqual(done.slice(1).map(({ method, outcome }) => [method, outcome]), [['tools/call', 'cancelled']]);
});

test('a request the transport cannot send is an error', async () => {
  const done: Done[] = [];
  const transport: Transport = {
    start: async () => undefined,
    send: async (_message: JsonRpcMessage) => {
      throw new Error('connect ECONNREFUSED');
    },
    close: async () => undefined,
  };
  const session = new UpstreamSession(SPEC, transport, handlersRecording(done), silentLogger);
  await assert.rejects(session.connect(INIT), /ECONNREFUSED/);
  assert.deepEqual(done.map(({ method, outcome }) => [method, outcome]), [['initialize', 'error']]);
});

test('a hook that throws is logged and changes nothing for the call', async () => {
  const done: Done[] = [];
  const logged: string[] = [];
  const logger: Logger = loggerFrom((_level, message) => logged.push(message));
  const { session } = await connected(done, logger, {
    onRequestDone() {
      throw new Error('metrics broke');
    },
  });
  assert.deepEqual(await call(session, 'quick'), { content: [] });
  await assert.rejects(call(session, 'broken'), /broken/);
  assert.ok(logged.filter((m) => m.includes('the request hook failed')).length >= 3, logged.join('\n'));
  await session.close();
});
