/**
 * @module Tests that `initialize` (and a 2026-07-28 host's `server/discover`) waits for the first probe of every
 * upstream, at most its connect timeout, and that hosts get list_changed for what an upstream brings when it comes up later.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject, JsonRpcNotification, JsonRpcResponse } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { parseRequestEnvelope } from '../protocol/request-envelope.js';
import type { Transport } from '../upstream/transport/transport.js';
import type { ModernSink } from '../ports/host-contracts.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, Host, spec } from './testing/gateway-doubles.js';

const SUBSCRIBABLE = { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } };
const INSTRUCTIONS = 'Use the desk for incidents.';
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test-host', version: '1' } };

/** An upstream whose every connection starts only once `open()` is called (a process that takes a while to start). */
function slowUpstream() {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const up = fakeUpstreamFactory({ noop: () => ({ content: [] }) }, { capabilities: SUBSCRIBABLE, instructions: INSTRUCTIONS });
  const transport = (): Transport => {
    const inner = up.open();
    const start = inner.start.bind(inner);
    inner.start = async () => {
      await gate;
      await start();
    };
    return inner;
  };
  return { transport, open: () => open() };
}

function resultOf(message: unknown): JsonObject {
  assert.ok(isObject(message) && isObject(message.result), `expected a result, got ${JSON.stringify(message)}`);
  return message.result;
}

test('initialize sent before the first probe ended waits for it: full capabilities and the instructions', async () => {
  const upstream = slowUpstream();
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => upstream.transport() });
  const host = new Host();
  host.session = gateway.openSession(host.channel);
  const answer = host.request('initialize', INIT);
  // The upstream comes up only after the host asked (the order `switchboard stdio` sees with a slow upstream).
  setImmediate(() => upstream.open());
  const result = resultOf(await answer);
  assert.deepEqual(result.capabilities, { tools: { listChanged: true }, resources: { listChanged: true, subscribe: true } });
  assert.equal(result.instructions, `[desk] ${INSTRUCTIONS}`);
  await gateway.close();
});

test('the wait is bounded by the upstream connect timeout: an upstream that never starts does not hold initialize', async () => {
  const upstream = slowUpstream(); // never opened
  const gateway = createGateway(config([spec('desk', 'per-session', { connectTimeoutMs: 200 })]), { logger: silentLogger, openTransport: () => upstream.transport() });
  const host = new Host();
  host.session = gateway.openSession(host.channel);
  const result = resultOf(await host.request('initialize', INIT));
  assert.equal(result.instructions, undefined, 'nothing is known of the upstream');
  assert.ok(isObject(result.capabilities));
  await gateway.close();
});

test('an upstream that comes up after the host initialized brings notifications/*/list_changed for the lists it offers', async () => {
  let attempts = 0;
  const up = fakeUpstreamFactory({ noop: () => ({ content: [] }) }, { capabilities: SUBSCRIBABLE });
  const failing = (): Transport => ({
    start: () => Promise.reject(new Error('not yet')),
    send: () => Promise.reject(new Error('not started')),
    close: () => Promise.resolve(),
  });
  // The first probe fails; the retry after the backoff finds it up.
  const gateway = createGateway({ ...config([spec('late')]), retry: { initialDelayMs: 300, maxDelayMs: 300 } }, {
    logger: silentLogger,
    openTransport: () => (attempts++ === 0 ? failing() : up.open()),
  });
  await gateway.ready;
  const host = new Host();
  host.session = gateway.openSession(host.channel);
  resultOf(await host.request('initialize', INIT));
  host.session.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const changed = (method: string) => host.waitFor((s) => 'method' in s.message && s.message.method === method);
  await Promise.all([changed('notifications/tools/list_changed'), changed('notifications/resources/list_changed')]);
  assert.equal(host.sent.some((s) => 'method' in s.message && s.message.method === 'notifications/prompts/list_changed'), false, 'it offers no prompts');
  await gateway.close();
});

/** What the gateway sends a 2026-07-28 request. */
class Sink implements ModernSink {
  readonly notes: JsonRpcNotification[] = [];
  #respond: (response: JsonRpcResponse) => void = () => undefined;
  readonly response = new Promise<JsonRpcResponse>((resolve) => (this.#respond = resolve));
  notify(message: JsonRpcNotification): void {
    this.notes.push(message);
  }
  respond(message: JsonRpcResponse): void {
    this.#respond(message);
  }
}

test('server/discover from a 2026-07-28 host waits for the first probes like initialize', async () => {
  const upstream = slowUpstream();
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => upstream.transport() });
  const request = {
    jsonrpc: '2.0' as const,
    id: 1,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'modern-test-host', version: '1' },
      },
    },
  };
  const parsed = parseRequestEnvelope(request.params);
  assert.ok(parsed.ok);
  const sink = new Sink();
  gateway.serveModern(request, { principal: 'alice', envelope: parsed.envelope, transport: 'streamable-http' }, sink);
  setImmediate(() => upstream.open());
  const result = resultOf(await sink.response);
  assert.deepEqual(result.capabilities, { tools: { listChanged: true }, resources: { listChanged: true, subscribe: true } });
  assert.equal(result.instructions, `[desk] ${INSTRUCTIONS}`);
  await gateway.close();
});
