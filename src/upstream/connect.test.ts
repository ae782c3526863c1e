/**
 * @module Tests of connecting in the right era: the hosts' era (initialize) first, server/discover when that is
 * refused, the verdict remembered or pinned, and a modern verdict that turned legacy detected again.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { UpstreamSpec } from '../config/types.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import { upstreamEnvelope } from '../protocol/request-envelope.js';
import type { Era } from '../protocol/revisions.js';
import { createLinkedPair } from './transport/memory/linked-pair.js';
import type { Transport } from './transport/transport.js';
import { TransportError } from './transport/transport.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import { silentLogger } from '../core/log.js';
import { discoverResult, fakeModernFactory, ModernRpcError } from './testing/fake-modern-upstream.js';
import { fakeUpstreamFactory } from './testing/fake-upstream.js';
import { spec } from '../app/testing/gateway-doubles.js';
import { connectUpstream } from './connect.js';

const INIT = { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'host', version: '1' } };
const ENVELOPE = upstreamEnvelope({ hostCapabilities: { elicitation: {} }, hostRevision: '2025-06-18', clientInfo: { name: 'host', version: '1' } });
const NO_HANDLERS = { onRequest() {}, onNotification() {}, onClose() {} };

function connect(upstream: UpstreamSpec, open: () => Transport, remembered?: Era) {
  return connectUpstream({ spec: upstream, open, handlers: NO_HANDLERS, logger: silentLogger, remembered, init: INIT, envelope: () => ENVELOPE });
}

function methods(messages: JsonRpcMessage[] | undefined): string[] {
  return (messages ?? []).flatMap((m) => ('method' in m ? [m.method] : []));
}

/** A transport whose upstream answers every request with `error` (a server that is neither era we know). */
function refusing(error: { code: number; message: string }): Transport {
  const [client, server] = createLinkedPair();
  server.onmessage = (message) => {
    if ('method' in message && 'id' in message) void server.send({ jsonrpc: '2.0', id: message.id, error });
  };
  return client;
}

test('a legacy upstream is initialized at once: no probe, one connection', async () => {
  const up = fakeUpstreamFactory({});
  const session = await connect(spec('desk'), up.open);
  assert.equal(session.era, 'legacy');
  assert.equal(session.protocolVersion, '2025-11-25');
  assert.equal(up.servers.length, 1);
  assert.deepEqual(methods(up.servers[0]?.received), ['initialize', 'notifications/initialized']);
  assert.deepEqual(up.servers[0]?.initializeParams, INIT);
  await session.close();
});

test('an upstream serving both eras is spoken to in the hosts\' (legacy), even though its server/discover names only 2026-07-28', async () => {
  const up = fakeUpstreamFactory({}, { discover: discoverResult() });
  const session = await connect(spec('desk'), up.open);
  assert.equal(session.era, 'legacy');
  assert.deepEqual(methods(up.servers[0]?.received), ['initialize', 'notifications/initialized']);
  await session.close();
});

test('a 2026-07-28 upstream refuses initialize; server/discover on a new connection makes it modern, without initialize', async () => {
  const up = fakeModernFactory({ discover: () => discoverResult({ capabilities: { tools: { listChanged: true } }, instructions: 'hi' }) });
  const session = await connect(spec('desk'), up.open);
  assert.equal(session.era, 'modern');
  assert.equal(session.protocolVersion, '2026-07-28');
  assert.deepEqual(session.serverCapabilities, { tools: { listChanged: true } });
  assert.deepEqual(session.serverInfo, { name: 'fake-modern', version: '2' });
  assert.equal(session.instructions, 'hi');
  assert.equal(up.servers.length, 2);
  assert.deepEqual(methods(up.servers[0]?.received), ['initialize']);
  assert.deepEqual(methods(up.servers[1]?.received), ['server/discover']);
  assert.deepEqual(up.servers[1]?.requests('server/discover')[0]?.params, {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'host', version: '1' },
    },
  });
  await session.close();
});

test('a remembered modern verdict asks server/discover first (it is how a modern session starts)', async () => {
  const up = fakeModernFactory();
  const session = await connect(spec('desk'), up.open, 'modern');
  assert.equal(session.era, 'modern');
  assert.equal(up.servers.length, 1);
  assert.deepEqual(methods(up.servers[0]?.received), ['server/discover']);
  await session.close();
});

test('a remembered modern verdict that turned legacy: discover refused (-32601), initialized on the same connection', async () => {
  const up = fakeUpstreamFactory({});
  const session = await connect(spec('desk'), up.open, 'modern');
  assert.equal(session.era, 'legacy');
  assert.equal(up.servers.length, 1);
  assert.deepEqual(methods(up.servers[0]?.received), ['server/discover', 'initialize', 'notifications/initialized']);
  await session.close();
});

test('a stdio upstream that dies on server/discover is started again and initialized', async () => {
  const legacy = fakeUpstreamFactory({});
  let opened = 0;
  const open = (): Transport => {
    opened += 1;
    if (opened > 1) return legacy.open();
    const [client, server] = createLinkedPair();
    server.onmessage = () => void server.close(); // an old server that exits on anything it does not know
    return client;
  };
  const session = await connect(spec('desk'), open, 'modern');
  assert.equal(session.era, 'legacy');
  assert.equal(opened, 2);
  assert.deepEqual(methods(legacy.servers[0]?.received), ['initialize', 'notifications/initialized']);
  await session.close();
});

test('an initialize refused by an upstream that is not modern either fails with that refusal', async () => {
  let opened = 0;
  const open = () => {
    opened += 1;
    return refusing({ code: -32602, message: 'Unsupported protocol version: 2025-11-25' });
  };
  await assert.rejects(connect(spec('desk'), open), (error) => error instanceof Error && error.message === 'Unsupported protocol version: 2025-11-25');
  assert.equal(opened, 2, 'server/discover was asked, on a new connection');
});

test('an initialize that never reached the upstream is not a reason to probe', async () => {
  let opened = 0;
  const open = (): Transport => {
    opened += 1;
    return { start: async () => undefined, send: () => Promise.reject(new TransportError('connect ECONNREFUSED')), close: async () => undefined };
  };
  await assert.rejects(connect(spec('desk'), open), (error) => error instanceof GatewayError && error.code === 'GW_ERR_UPSTREAM_UNAVAILABLE');
  assert.equal(opened, 1);
});

test('pinned: era legacy never probes; era modern takes the modern side of a server of both eras, and refuses a legacy one', async () => {
  const legacy = fakeUpstreamFactory({});
  const session = await connect(spec('desk', 'per-session', { era: 'legacy' }), legacy.open, 'modern');
  assert.deepEqual(methods(legacy.servers[0]?.received), ['initialize', 'notifications/initialized']);
  await session.close();

  const dual = fakeUpstreamFactory({}, { discover: discoverResult() });
  const modern = await connect(spec('desk', 'per-session', { era: 'modern' }), dual.open);
  assert.equal(modern.era, 'modern');
  assert.deepEqual(methods(dual.servers[0]?.received), ['server/discover']);
  await modern.close();

  const other = fakeUpstreamFactory({});
  await assert.rejects(connect(spec('desk', 'per-session', { era: 'modern' }), other.open), (error) => {
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'GW_ERR_UPSTREAM_UNAVAILABLE');
    assert.match(error.message, /configured as era: modern, but server\/discover answered -32601/);
    return true;
  });
  assert.deepEqual(methods(other.servers[0]?.received), ['server/discover'], 'never initialized');
});

test('an sse upstream is legacy whatever the era setting says', async () => {
  const up = fakeUpstreamFactory({});
  const session = await connect({ ...spec('old', 'per-session', { era: 'modern' }), kind: 'sse', url: 'http://x/sse', headers: {} } as UpstreamSpec, up.open);
  assert.deepEqual(methods(up.servers[0]?.received), ['initialize', 'notifications/initialized']);
  await session.close();
});

test('-32022 that lists 2026-07-28 is asked once more; an upstream that speaks only a future revision is refused, naming it', async () => {
  let calls = 0;
  const retried = fakeModernFactory({
    discover: () => {
      calls += 1;
      if (calls === 1) throw new ModernRpcError({ code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2026-07-28' } });
      return discoverResult();
    },
  });
  const session = await connect(spec('desk'), retried.open);
  assert.equal(session.era, 'modern');
  assert.equal(calls, 2);
  await session.close();

  const future = fakeModernFactory({ discover: () => discoverResult({ supportedVersions: ['2027-03-01'] }) });
  await assert.rejects(connect(spec('desk'), future.open), /speaks 2027-03-01/);
});

test('an upstream that cannot start gives no verdict: the start failure is the error', async () => {
  const open = (): Transport => ({
    start: () => Promise.reject(new Error('spawn nope ENOENT')),
    send: () => Promise.reject(new Error('not started')),
    close: async () => undefined,
  });
  await assert.rejects(connect(spec('desk', 'per-session', { era: 'modern' }), open), /ENOENT/);
  await assert.rejects(connect(spec('desk'), open), /ENOENT/);
});
