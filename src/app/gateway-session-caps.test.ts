/**
 * @module Issue 11 item 2 on the HTTP edge, in front of a real gateway: sessionful HTTP sessions, legacy /sse sessions and
 * 2026-07-28 stand-ins share one count; at `http.maxSessions` (or `maxSessionsPerPrincipal`) the least recently used idle
 * session is closed, and when none is idle a new one gets 503 with Retry-After; /sse sessions obey the idle timeout.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { HttpSettings } from '../config/types.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import type { ToolHandler } from '../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, spec } from './testing/gateway-doubles.js';
import { createGatewayMetrics } from '../observability/gateway-metrics.js';
import { MetricsRegistry } from '../observability/metrics.js';
import { sampleValue } from '../observability/testing/sample-value.js';
import { eventually, within } from '../core/testing/deadlines.js';
import { createMcpHttpHandler } from '../edges/http/mcp-handler.js';
import { BASE, initializeBody, mcpPost, readSse } from '../edges/http/testing/sse.js';
import { noteRemoteAddress } from '../edges/http/modern-principal.js';
import { testHttpSettings } from '../edges/http/testing/http-settings.js';

async function setup(http: Partial<HttpSettings>, tools: Record<string, ToolHandler> = {}) {
  const up = fakeUpstreamFactory({ echo: () => ({ content: [{ type: 'text', text: 'echo' }] }), ...tools });
  const cfg = config([spec('desk')]);
  cfg.http = { ...cfg.http, ...http };
  const registry = new MetricsRegistry();
  const gateway = createGateway(cfg, { logger: silentLogger, openTransport: () => up.open(), metrics: createGatewayMetrics(registry) });
  await gateway.ready;
  const handler = createMcpHttpHandler(gateway, testHttpSettings(cfg.http));
  const handle = (req: Request) => handler.handle(req);
  return {
    handle,
    metric: async (series: string) => sampleValue(await registry.render(), series) ?? 0,
    async close() {
      await handler.close();
      await gateway.close();
    },
  };
}

type Handle = (req: Request) => Promise<Response>;

/** Initializes a sessionful session as `client`; returns its headers, or the refusal. */
async function initialize(handle: Handle, client = 'test-host', address?: string): Promise<{ headers: Record<string, string> } | { refused: Response }> {
  const body = initializeBody(0);
  (body.params as { clientInfo: { name: string } }).clientInfo.name = client;
  const request = mcpPost(body);
  noteRemoteAddress(request, address);
  const response = await handle(request);
  if (response.status !== 200) return { refused: response };
  const sessionId = response.headers.get('mcp-session-id') ?? '';
  await readSse(response).rest();
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
  assert.equal((await handle(mcpPost({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers))).status, 202);
  return { headers };
}

async function opened(handle: Handle, client?: string, address?: string): Promise<Record<string, string>> {
  const result = await initialize(handle, client, address);
  assert.ok('headers' in result, 'the session was opened');
  return result.headers;
}

/** A session with its GET stream open is busy: it is never closed to make room. */
async function busy(handle: Handle, client?: string, address?: string): Promise<{ headers: Record<string, string>; stream: Response }> {
  const headers = await opened(handle, client, address);
  const stream = await handle(new Request(`${BASE}/mcp`, { headers: { accept: 'text/event-stream', ...headers } }));
  assert.equal(stream.status, 200);
  return { headers, stream };
}

async function pingStatus(handle: Handle, headers: Record<string, string>): Promise<number> {
  const response = await handle(mcpPost({ jsonrpc: '2.0', id: 7, method: 'ping' }, headers));
  await response.body?.cancel();
  return response.status;
}

async function assertRefused(response: Response): Promise<{ code: number; message: string; data?: unknown }> {
  assert.equal(response.status, 503);
  assert.match(response.headers.get('retry-after') ?? '', /^\d+$/, 'Retry-After says when to come back');
  const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string; data?: unknown } };
  assert.equal(body.jsonrpc, '2.0');
  return body.error;
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'modern-host', version: '1' },
};

function modernToolsList(id: number, client = 'modern-host'): Request {
  const meta = { ...MODERN_META, 'io.modelcontextprotocol/clientInfo': { name: client, version: '1' } };
  return mcpPost({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
}

function openSse(handle: Handle): Promise<Response> {
  return handle(new Request(`${BASE}/sse`, { headers: { accept: 'text/event-stream' } }));
}

test('at http.maxSessions the least recently used idle session is closed to make room for a new one', async (t) => {
  const edge = await setup({ maxSessions: 2 });
  t.after(() => edge.close());
  const first = await opened(edge.handle);
  const second = await opened(edge.handle);
  assert.equal(await pingStatus(edge.handle, first), 200, 'the first session is now the more recently used');
  const third = await opened(edge.handle);
  assert.equal(await pingStatus(edge.handle, second), 404, 'the least recently used idle session was closed');
  assert.equal(await pingStatus(edge.handle, first), 200);
  assert.equal(await pingStatus(edge.handle, third), 200);
  assert.equal(await edge.metric('switchboard_host_sessions_evicted_total{kind="streamable-http"}'), 1);
  assert.equal(await edge.metric('switchboard_host_sessions_open{kind="streamable-http"}'), 2);
});

test('at http.maxSessions with every session busy a new one gets 503 with Retry-After, and the open ones keep working', async (t) => {
  const edge = await setup({ maxSessions: 2 });
  t.after(() => edge.close());
  const a = await busy(edge.handle);
  const b = await busy(edge.handle);
  const third = await initialize(edge.handle);
  assert.ok('refused' in third, 'the third session was refused');
  const error = await assertRefused(third.refused);
  assert.equal(error.code, -32603);
  assert.equal(await pingStatus(edge.handle, a.headers), 200);
  assert.equal(await pingStatus(edge.handle, b.headers), 200);
  assert.equal(await edge.metric('switchboard_host_sessions_refused_total{kind="streamable-http"}'), 1);
  assert.equal(await edge.metric('switchboard_host_sessions_evicted_total{kind="streamable-http"}'), 0);
});

test('http.maxSessionsPerPrincipal caps one client address without touching another', async (t) => {
  const edge = await setup({ maxSessions: 100, maxSessionsPerPrincipal: 2 });
  t.after(() => edge.close());
  await busy(edge.handle, 'greedy-host', '127.0.0.2');
  await busy(edge.handle, 'greedy-host', '127.0.0.2');
  const refused = await initialize(edge.handle, 'greedy-host', '127.0.0.2');
  assert.ok('refused' in refused, 'a third session of the same principal is refused');
  await assertRefused(refused.refused);
  const other = await opened(edge.handle, 'other-host', '127.0.0.3');
  assert.equal(await pingStatus(edge.handle, other), 200);
});

test('http.maxSessionsPerPrincipal is not dodged by a new clientInfo name or Authorization header on each initialize (hosts do not authenticate yet)', async (t) => {
  const edge = await setup({ maxSessions: 100, maxSessionsPerPrincipal: 2 });
  t.after(() => edge.close());
  await busy(edge.handle, 'name-1', '127.0.0.2');
  await busy(edge.handle, 'name-2', '127.0.0.2');
  const renamed = await initialize(edge.handle, 'name-3', '127.0.0.2');
  assert.ok('refused' in renamed, 'a new client name is the same client');
  await assertRefused(renamed.refused);
  const body = initializeBody(0);
  const tokened = mcpPost(body, { authorization: 'Bearer made-up-4' });
  noteRemoteAddress(tokened, '127.0.0.2');
  await assertRefused(await edge.handle(tokened));
});

test('legacy /sse sessions and 2026-07-28 stand-ins count towards the same cap', async (t) => {
  const edge = await setup({ maxSessions: 2 });
  t.after(() => edge.close());
  await busy(edge.handle);
  const sse = await openSse(edge.handle);
  assert.equal(sse.status, 200);
  const reader = readSse(sse);
  const endpoint = await reader.next();
  assert.equal(endpoint?.event, 'endpoint');
  // Two sessions are open: the stand-in a 2026-07-28 request needs takes the idle /sse session's place.
  const served = await edge.handle(modernToolsList(1));
  assert.equal(served.status, 200);
  assert.ok(Array.isArray(((await served.json()) as { result: { tools: unknown } }).result.tools));
  assert.deepEqual(await reader.rest(), [], 'the evicted /sse stream ended');
  assert.equal(await edge.metric('switchboard_host_sessions_evicted_total{kind="sse"}'), 1);
  // The stand-in is idle now, so a new /sse session takes its place in turn.
  const again = await openSse(edge.handle);
  assert.equal(again.status, 200);
  assert.equal(await edge.metric('switchboard_host_sessions_evicted_total{kind="stand-in"}'), 1);
  assert.deepEqual(await Promise.all(['streamable-http', 'sse', 'stand-in'].map((kind) => edge.metric(`switchboard_host_sessions_open{kind="${kind}"}`))), [1, 1, 0]);
  await again.body?.cancel();
});

test('a 2026-07-28 request refused at the cap gets 503 with Retry-After and its JSON-RPC error body', async (t) => {
  const edge = await setup({ maxSessions: 1 });
  t.after(() => edge.close());
  await busy(edge.handle);
  const response = await edge.handle(modernToolsList(41));
  assert.equal(response.status, 503);
  assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
  const body = (await response.json()) as { id: unknown; error: { code: number; data?: unknown } };
  assert.equal(body.id, 41);
  assert.equal(body.error.code, -32603);
  assert.deepEqual(body.error.data, { reason: 'GW_ERR_HOST_LIMIT' });
  assert.equal(await edge.metric('switchboard_host_sessions_refused_total{kind="stand-in"}'), 1);
});

test('http.maxStandIns caps stand-ins on their own: a new context closes the idle one, far below maxSessions', async (t) => {
  const edge = await setup({ maxSessions: 100, maxStandIns: 1 });
  t.after(() => edge.close());
  assert.equal((await edge.handle(modernToolsList(1, 'first-host'))).status, 200);
  assert.equal(await edge.metric('switchboard_host_sessions_evicted_total{kind="stand-in"}'), 0);
  assert.equal((await edge.handle(modernToolsList(2, 'second-host'))).status, 200);
  assert.equal(await edge.metric('switchboard_host_sessions_evicted_total{kind="stand-in"}'), 1);
});

test('a legacy /sse session refused at the cap gets 503 with Retry-After', async (t) => {
  const edge = await setup({ maxSessions: 1 });
  t.after(() => edge.close());
  await busy(edge.handle);
  await assertRefused(await openSse(edge.handle));
});

test('a legacy /sse session with no traffic is closed after http.sessionIdleTimeout', async (t) => {
  const edge = await setup({ sessionIdleTimeoutMs: 150 });
  t.after(() => edge.close());
  const sse = await openSse(edge.handle);
  const reader = readSse(sse);
  const endpoint = await reader.next();
  const path = String(endpoint?.data);
  // The idle clock does not hold the process open: the deadline's timer does, while the stream is awaited.
  assert.ok(await within(reader.rest(), 5000), 'the idle /sse stream ended');
  const post = await edge.handle(new Request(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }));
  assert.equal(post.status, 404);
  await eventually(async () => (await edge.metric('switchboard_host_sessions_active{transport="sse"}')) === 0, 'the gateway session to close');
});

test('a legacy /sse session with a message flowing is not idle', async (t) => {
  const edge = await setup({ sessionIdleTimeoutMs: 150 });
  t.after(() => edge.close());
  const sse = await openSse(edge.handle);
  const reader = readSse(sse);
  const endpoint = await reader.next();
  const path = String(endpoint?.data);
  for (let i = 1; i <= 6; i++) {
    await new Promise((resolve) => setTimeout(resolve, 60));
    const post = await edge.handle(new Request(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }) }));
    assert.equal(post.status, 202, `ping ${i}`);
    const answer = await reader.nextMessage();
    assert.equal(answer?.id, i);
  }
});

test('item 16: a legacy /sse session with a call in flight is not idle, however long the call takes', async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const edge = await setup({ sessionIdleTimeoutMs: 100 }, { hold: async () => (await held, { content: [{ type: 'text', text: 'done' }] }) });
  t.after(() => edge.close());
  const reader = readSse(await openSse(edge.handle));
  const path = String((await reader.next())?.data);
  const post = (message: unknown) => edge.handle(new Request(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) }));
  assert.equal((await post(initializeBody(0, '2024-11-05'))).status, 202);
  assert.equal((await reader.nextMessage())?.id, 0);
  assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold', arguments: {} } })).status, 202);
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(await edge.metric('switchboard_host_sessions_active{transport="sse"}'), 1, 'the session with a call in flight is still open');
  release();
  const answer = await reader.nextMessage();
  assert.equal(answer?.id, 1);
  assert.deepEqual((answer?.result as { content: unknown }).content, [{ type: 'text', text: 'done' }]);
  assert.ok(await within(reader.rest(), 5000), 'idle again, the session ends');
});
