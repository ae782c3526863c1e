/** @module The Streamable HTTP edge refuses bad requests with the right status and JSON-RPC body before a session sees them. */

import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { createMcpHttpHandler } from './mcp-handler.js';
import type { McpHttpHandler } from './mcp-handler.js';
import { fakeMcpEdge, FakeGateway } from './testing/fake-gateway.js';
import { BASE, initializeBody, mcpPost, messagesOf, openTestSession, POST_HEADERS, readSse } from './testing/sse.js';
import { testHttpSettings } from './testing/http-settings.js';

const SETTINGS = testHttpSettings({ allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'], maxBodyBytes: 1024 });

async function expectError(response: Response, status: number, code: number, message: RegExp, id: unknown = null): Promise<void> {
  assert.equal(response.status, status);
  assert.equal(response.headers.get('content-type'), 'application/json');
  const body = (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(body.id, id);
  assert.equal(body.error.code, code);
  assert.match(body.error.message, message);
}

const ping = (id: number | string = 1) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('HTTP edge checks', () => {
  let gateway: FakeGateway;
  let handler: McpHttpHandler;
  const handle = (req: Request) => handler.handle(req);

  beforeEach(() => {
    ({ gateway, handler } = fakeMcpEdge(SETTINGS));
  });

  describe('Host and Origin (DNS rebinding)', () => {
    it('refuses a foreign Host with 403 and opens no session', async () => {
      await expectError(await handle(mcpPost(initializeBody(), { host: 'evil.example' })), 403, -32600, /Host "evil.example"/);
      assert.equal(gateway.sessions.length, 0);
    });

    it('refuses a foreign Origin with 403', async () => {
      await expectError(await handle(mcpPost(initializeBody(), { origin: 'https://evil.example' })), 403, -32600, /Origin/);
      assert.equal(gateway.sessions.length, 0);
    });

    it('accepts loopback hosts with any port, allowedHosts and allowed or loopback origins', async () => {
      const accepted: Record<string, string>[] = [
        { host: 'localhost:9999' },
        { host: '[::1]:1' },
        { host: 'mcp.example.com' },
        { host: 'mcp.example.com:8443', origin: 'https://app.example.com' },
        { host: '127.0.0.1', origin: 'http://localhost:5173' },
      ];
      for (const headers of accepted) {
        const response = await handle(mcpPost(initializeBody(), headers));
        assert.equal(response.status, 200, JSON.stringify(headers));
        await response.body?.cancel();
      }
    });

    it('checks the Host of /healthz too', async () => {
      const response = await handle(new Request(`${BASE}/healthz`, { headers: { host: 'evil.example' } }));
      assert.equal(response.status, 403);
    });
  });

  describe('POST headers and body', () => {
    it('answers 415 when Content-Type is not application/json', async () => {
      await expectError(await handle(mcpPost(initializeBody(), { 'content-type': 'text/plain' })), 415, -32600, /Content-Type/);
    });

    it('answers 406 when Accept lacks text/event-stream or application/json', async () => {
      await expectError(await handle(mcpPost(initializeBody(), { accept: 'application/json' })), 406, -32600, /Accept/);
      await expectError(await handle(mcpPost(initializeBody(), { accept: 'text/event-stream' })), 406, -32600, /Accept/);
    });

    it('answers 413 when the declared length is over the limit', async () => {
      const big = JSON.stringify({ ...initializeBody(), padding: 'x'.repeat(2000) });
      await expectError(await handle(mcpPost(big)), 413, -32600, /exceeds 1024 bytes/);
      assert.equal(gateway.sessions.length, 0);
    });

    it('answers 413 for a streamed body without Content-Length, reading no more than needed', async () => {
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(new TextEncoder().encode('x'.repeat(512)));
          if (pulled > 100) controller.close();
        },
      });
      const req = new Request(`${BASE}/mcp`, { method: 'POST', headers: POST_HEADERS, body, duplex: 'half' } as RequestInit);
      await expectError(await handle(req), 413, -32600, /Payload Too Large/);
      assert.ok(pulled < 10, `read ${pulled} chunks`);
    });

    it('answers 400 -32700 for malformed JSON and for invalid UTF-8', async () => {
      await expectError(await handle(mcpPost('{"jsonrpc":')), 400, -32700, /Parse error/);
      const req = new Request(`${BASE}/mcp`, { method: 'POST', headers: POST_HEADERS, body: new Uint8Array([0x22, 0xff, 0x22]) });
      await expectError(await handle(req), 400, -32700, /Parse error/);
    });

    it('answers 400 -32600 naming the limit to JSON deeper than http.maxJsonDepth: /mcp (both eras) and /messages', async () => {
      const shallow = fakeMcpEdge(testHttpSettings({ maxJsonDepth: 3 })).handler;
      const deepInit = { ...initializeBody(), params: { protocolVersion: '2025-11-25', capabilities: { experimental: { x: {} } }, clientInfo: { name: 'h', version: '1' } } };
      await expectError(await shallow.handle(mcpPost(deepInit)), 400, -32600, /deeper than 3 levels \(http\.maxJsonDepth\)/);
      const modern = { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } };
      await expectError(await shallow.handle(mcpPost(modern, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' })), 400, -32600, /deeper than 3 levels/);
      const stream = readSse(await shallow.handle(new Request(`${BASE}/sse`, { headers: { accept: 'text/event-stream' } })));
      const endpoint = (await stream.next())?.data ?? '';
      const legacyPost = new Request(`${BASE}${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(deepInit) });
      await expectError(await shallow.handle(legacyPost), 400, -32600, /deeper than 3 levels/);
      await stream.cancel();
      // The same initialize is well within the default limit.
      assert.equal((await handle(mcpPost(deepInit))).status, 200);
    });

    it('answers 400 -32600 for JSON that is not a JSON-RPC message, keeping a usable id', async () => {
      await expectError(await handle(mcpPost({ jsonrpc: '1.0', id: 7, method: 'ping' })), 400, -32600, /jsonrpc must be "2.0"/, 7);
      await expectError(await handle(mcpPost('42')), 400, -32600, /must be an object/);
    });

    it('answers 400 -32600 to a batch on a session that is not at 2025-03-26 (the one revision with batches)', async () => {
      const { headers } = await openTestSession(handle, '2025-11-25');
      await expectError(await handle(mcpPost([ping(1), ping(2)], headers)), 400, -32600, /batches exist only in revision 2025-03-26/);
    });

    it('takes a batch on a 2025-03-26 session: one stream carries every response, then ends; notifications alone get 202', async () => {
      const { headers } = await openTestSession(handle, '2025-03-26');
      const echo = (id: number, text: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
      const response = await handle(mcpPost([echo(11, 'a'), echo(12, 'b')], headers));
      assert.equal(response.status, 200);
      const results = messagesOf(await readSse(response).rest()).filter((m) => 'result' in m);
      assert.deepEqual(results.map((m) => [m.id, (m.result as { content: { text: string }[] }).content[0]?.text]), [
        [11, 'a'],
        [12, 'b'],
      ]);
      const notifications = await handle(mcpPost([{ jsonrpc: '2.0', method: 'notifications/initialized' }], headers));
      assert.equal(notifications.status, 202);
      await expectError(await handle(mcpPost([], headers)), 400, -32600, /empty batch/);
      await expectError(await handle(mcpPost([ping(3), { jsonrpc: '2.0' }], headers)), 400, -32600, /batch item/);
    });
  });

  describe('sessions and protocol version', () => {
    it('answers 400 when a non-initialize message has no Mcp-Session-Id', async () => {
      await expectError(await handle(mcpPost(ping(3))), 400, -32600, /Mcp-Session-Id header is required/, 3);
    });

    it('answers 404 -32001 for an unknown session id', async () => {
      await expectError(await handle(mcpPost(ping(4), { 'mcp-session-id': 'no-such-session' })), 404, -32001, /^Session not found$/, 4);
    });

    it('answers 400 to an initialize that carries a session id', async () => {
      const { sessionId } = await openTestSession(handle);
      await expectError(await handle(mcpPost(initializeBody(9), { 'mcp-session-id': sessionId })), 400, -32600, /initialize/, 9);
      assert.equal(gateway.sessions.length, 1);
    });

    it('answers 400 to an MCP-Protocol-Version that is not a known revision', async () => {
      const { headers } = await openTestSession(handle);
      const response = await handle(mcpPost(ping(5), { ...headers, 'mcp-protocol-version': '2031-01-01' }));
      await expectError(response, 400, -32600, /Unsupported protocol version: 2031-01-01/, 5);
    });

    it('accepts a known MCP-Protocol-Version other than the negotiated one (the session revision governs)', async () => {
      const { headers } = await openTestSession(handle, '2025-06-18');
      const response = await handle(mcpPost(ping(6), { ...headers, 'mcp-protocol-version': '2025-03-26' }));
      assert.equal(response.status, 200);
      assert.ok(gateway.last.received.some((m) => 'id' in m && m.id === 6));
    });

    it('accepts a request without MCP-Protocol-Version', async () => {
      const { sessionId } = await openTestSession(handle);
      const response = await handle(mcpPost(ping(7), { 'mcp-session-id': sessionId }));
      assert.equal(response.status, 200);
      await response.body?.cancel();
    });

    it('refuses a response whose id the session does not expect, without passing it on', async () => {
      const { headers } = await openTestSession(handle);
      const before = gateway.last.received.length;
      const stray = { jsonrpc: '2.0', id: 'srv-99', result: { action: 'accept' } };
      await expectError(await handle(mcpPost(stray, headers)), 400, -32600, /Unknown response id "srv-99"/, 'srv-99');
      const strayError = { jsonrpc: '2.0', id: null, error: { code: -1, message: 'x' } };
      await expectError(await handle(mcpPost(strayError, headers)), 400, -32600, /Unknown response id null/);
      assert.equal(gateway.last.received.length, before);
    });

    it('answers 400 -32602 to an initialize with malformed params, opening no session', async () => {
      const body = { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25' } };
      await expectError(await handle(mcpPost(body)), 400, -32602, /clientInfo/, 2);
      assert.equal(gateway.sessions.length, 0);
    });

    it('takes a message with an extra top-level member: the edge checks the envelope, the session transport checks nothing again', async () => {
      const body = { ...initializeBody(3), 'x-extension': true };
      const response = await handle(mcpPost(body));
      assert.equal(response.status, 200);
      assert.ok(response.headers.get('mcp-session-id'));
      await response.body?.cancel();
      assert.equal(gateway.sessions.length, 1);
      assert.equal(gateway.last.closed, false);
    });

    it('answers 503 when the gateway refuses a new session', async () => {
      gateway.refuseSessions = new Error('shutting down');
      await expectError(await handle(mcpPost(initializeBody(1))), 503, -32603, /Service Unavailable/, 1);
    });
  });

  describe('GET and DELETE checks', () => {
    it('GET needs Accept: text/event-stream (406), a session id (400) and a known session (404)', async () => {
      const get = (headers: Record<string, string>) => handle(new Request(`${BASE}/mcp`, { headers }));
      await expectError(await get({ accept: 'application/json' }), 406, -32600, /text\/event-stream/);
      await expectError(await get({ accept: 'text/event-stream' }), 400, -32600, /Mcp-Session-Id/);
      await expectError(await get({ accept: 'text/event-stream', 'mcp-session-id': 'nope' }), 404, -32001, /Session not found/);
    });

    it('DELETE needs a session id (400) and a known session (404)', async () => {
      const del = (headers: Record<string, string>) => handle(new Request(`${BASE}/mcp`, { method: 'DELETE', headers }));
      await expectError(await del({}), 400, -32600, /Mcp-Session-Id/);
      await expectError(await del({ 'mcp-session-id': 'nope' }), 404, -32001, /Session not found/);
    });

    it('checks MCP-Protocol-Version on GET as well', async () => {
      const { sessionId } = await openTestSession(handle);
      const req = new Request(`${BASE}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': 'bogus' } });
      await expectError(await handle(req), 400, -32600, /Unsupported protocol version/);
    });
  });

  describe('routing', () => {
    it('answers 404 for unknown paths', async () => {
      await expectError(await handle(new Request(`${BASE}/nope`)), 404, -32600, /Not Found: \/nope/);
    });

    it('answers 405 with Allow for other methods', async () => {
      const put = await handle(new Request(`${BASE}/mcp`, { method: 'PUT', body: '{}' }));
      assert.equal(put.headers.get('allow'), 'GET, POST, DELETE');
      await expectError(put, 405, -32600, /Method Not Allowed/);
      const postHealth = await handle(new Request(`${BASE}/healthz`, { method: 'POST', body: '{}' }));
      assert.equal(postHealth.headers.get('allow'), 'GET');
      await expectError(postHealth, 405, -32600, /Method Not Allowed/);
    });

    it('answers HEAD with 405 like any other method it lacks, opening no legacy session', async () => {
      for (const [path, allow] of [['/mcp', 'GET, POST, DELETE'], ['/sse', 'GET'], ['/messages', 'POST'], ['/healthz', 'GET']]) {
        const response = await handle(new Request(`${BASE}${path}`, { method: 'HEAD', headers: { accept: 'text/event-stream' } }));
        assert.equal(response.status, 405, path);
        assert.equal(response.headers.get('allow'), allow, path);
      }
      assert.equal(gateway.sessions.length, 0);
    });

    it('routes on the path as sent, and hands other paths to the extra routes behind the Host check', async () => {
      await expectError(await handle(new Request(`${BASE}/mc%70`, { method: 'POST' })), 404, -32600, /Not Found: \/mc%70/);
      const seen: string[] = [];
      const extraRoutes = [{ handle: (req: Request) => void seen.push(new URL(req.url).pathname) }, { handle: (req: Request) => (new URL(req.url).pathname === '/x' ? new Response('x') : undefined) }];
      const h = createMcpHttpHandler(gateway, { ...SETTINGS, extraRoutes });
      assert.equal(await (await h.handle(new Request(`${BASE}/x`))).text(), 'x');
      await expectError(await h.handle(new Request(`${BASE}/y`)), 404, -32600, /Not Found: \/y/);
      await expectError(await h.handle(new Request(`${BASE}/x`, { headers: { host: 'evil.example' } })), 403, -32600, /Host/);
      assert.deepEqual(seen, ['/x', '/y']);
    });

    it('serves /healthz: 503 before the gateway is ready, 200 after, and to anyone only whether it is ready', async () => {
      const notReady = new FakeGateway({ ready: false });
      const h = createMcpHttpHandler(notReady, SETTINGS);
      const before = await h.handle(new Request(`${BASE}/healthz`));
      assert.equal(before.status, 503);
      assert.equal(before.headers.get('content-type'), 'application/json');
      assert.deepEqual(await before.json(), { ready: false });
      notReady.setReady();
      const after = await h.handle(new Request(`${BASE}/healthz`, { headers: { authorization: 'Bearer anything' } }));
      assert.equal(after.status, 200);
      assert.deepEqual(await after.json(), { ready: true });
    });

    it('shows /healthz\'s per-upstream detail only to a request with the operator token', async () => {
      const gateway = new FakeGateway({ ready: false });
      const h = createMcpHttpHandler(gateway, { ...SETTINGS, isOperator: (req) => req.headers.get('authorization') === 'Bearer op-token' });
      const operator = { headers: { authorization: 'Bearer op-token' } };
      const before = await h.handle(new Request(`${BASE}/healthz`, operator));
      assert.equal(before.status, 503);
      assert.deepEqual(await before.json(), gateway.health());
      gateway.setReady();
      const after = await h.handle(new Request(`${BASE}/healthz`, operator));
      assert.equal(after.status, 200);
      assert.deepEqual(await after.json(), { ready: true, upstreams: [{ name: 'desk', transport: 'stdio', state: 'up' }] });
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        assert.deepEqual(await (await h.handle(new Request(`${BASE}/healthz`, { headers }))).json(), { ready: true });
      }
    });

    it('adds the store and the instances to /healthz for an operator, and only for one', async () => {
      const details = { store: { type: 'postgres', where: 'postgres://gw@db/sb' }, instance: 'gw-1', instances: [{ id: 'gw-1', state: 'up' }] };
      const h = createMcpHttpHandler(new FakeGateway({ ready: true }), { ...SETTINGS, isOperator: (req) => req.headers.get('authorization') === 'Bearer op-token', healthDetails: async () => details });
      const shown = (await (await h.handle(new Request(`${BASE}/healthz`, { headers: { authorization: 'Bearer op-token' } }))).json()) as Record<string, unknown>;
      assert.deepEqual([shown.ready, shown.store, shown.instance, shown.instances], [true, details.store, 'gw-1', details.instances]);
      assert.deepEqual(await (await h.handle(new Request(`${BASE}/healthz`))).json(), { ready: true });
      const failing = createMcpHttpHandler(new FakeGateway({ ready: true }), { ...SETTINGS, isOperator: () => true, healthDetails: async () => Promise.reject(new Error('the store is down')) });
      const degraded = await failing.handle(new Request(`${BASE}/healthz`, { headers: { authorization: 'Bearer x' } }));
      assert.equal(degraded.status, 200, 'the upstreams still decide readiness');
      assert.equal(((await degraded.json()) as { detailsError?: string }).detailsError, 'the store is down');
    });

    it('draining: a new session is refused with 503 and Retry-After, an open one goes on, /healthz says draining', async () => {
      const gateway = new FakeGateway({ ready: true });
      const h = createMcpHttpHandler(gateway, { ...SETTINGS, isOperator: (req) => req.headers.get('authorization') === 'Bearer op-token' });
      const opened = await h.handle(mcpPost(initializeBody()));
      const sessionId = opened.headers.get('mcp-session-id');
      assert.ok(sessionId);
      h.drain();
      const refused = await h.handle(mcpPost(initializeBody()));
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.match(((await refused.json()) as { error: { message: string } }).error.message, /draining/);
      const sse = await h.handle(new Request(`${BASE}/sse`));
      assert.equal(sse.status, 503);
      const ping = await h.handle(mcpPost({ jsonrpc: '2.0', id: 9, method: 'ping' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }));
      assert.equal(ping.status, 200, 'the open session goes on');
      const health = await h.handle(new Request(`${BASE}/healthz`));
      assert.equal(health.status, 503);
      assert.deepEqual(await health.json(), { ready: false, draining: true });
      const detailed = (await (await h.handle(new Request(`${BASE}/healthz`, { headers: { authorization: 'Bearer op-token' } }))).json()) as Record<string, unknown>;
      assert.deepEqual([detailed.ready, detailed.draining, Array.isArray(detailed.upstreams)], [false, true, true]);
      await h.close();
    });

    it('answers 503 on /mcp once closed', async () => {
      await handler.close();
      await expectError(await handle(mcpPost(initializeBody())), 503, -32603, /shutting down/);
    });
  });
});
