/** @module The node:http adapter over a real socket: SSE events arrive one by one, not when the stream ends. */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { createMcpHttpHandler } from './mcp-handler.js';
import type { McpHttpHandler } from './mcp-handler.js';
import { startHttpServer, streamAtOnce, urlHost } from './node-server.js';
import type { RunningHttpServer } from './node-server.js';
import { FakeGateway } from './testing/fake-gateway.js';
import { initializeBody, messagesOf, POST_HEADERS, readSse } from './testing/sse.js';
import { testHttpSettings } from './testing/http-settings.js';

describe('startHttpServer', () => {
  const gateway = new FakeGateway();
  let handler: McpHttpHandler;
  let server: RunningHttpServer;

  before(async () => {
    handler = createMcpHttpHandler(gateway, testHttpSettings());
    server = await startHttpServer(handler, { host: '127.0.0.1', port: 0 });
  });

  after(async () => {
    await handler.close();
    await server.close();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(body) });

  it('binds a real port when given 0', () => {
    assert.ok(server.port > 0);
    assert.equal(server.url, `http://127.0.0.1:${server.port}`);
  });

  it('flushes each SSE event as it is sent, before the response exists', { timeout: 5000 }, async () => {
    const init = await post(initializeBody());
    assert.equal(init.status, 200);
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    assert.equal(messagesOf(await readSse(init).rest()).length, 1);
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };

    const response = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'hold' } }, headers);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const stream = readSse(response);
    // The result does not exist yet: reading this event proves the adapter flushed it on its own.
    assert.deepEqual(await stream.nextMessage(), { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 1 } });
    gateway.last.release(7, 'now');
    assert.deepEqual(messagesOf(await stream.rest()), [
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 2 } },
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'now' }] } },
    ]);
  });

  it('serves /healthz and plain error responses', async () => {
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { ready: gateway.health().ready });
    const missing = await fetch(`${server.url}/elsewhere`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('content-type'), 'application/json');
  });

  it('brackets IPv6 hosts in URLs', () => {
    assert.equal(urlHost('::1'), '[::1]');
    assert.equal(urlHost('127.0.0.1'), '127.0.0.1');
  });
});

describe('startHttpServer close', () => {
  it('closes while an SSE stream is still open', { timeout: 5000 }, async () => {
    const gateway = new FakeGateway();
    const handler = createMcpHttpHandler(gateway, testHttpSettings());
    const server = await startHttpServer(handler, { host: '127.0.0.1', port: 0 });
    const init = await fetch(`${server.url}/mcp`, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(initializeBody()) });
    await init.body?.cancel();
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    const stream = await fetch(`${server.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } });
    assert.equal(stream.status, 200);
    await server.close();
    await assert.rejects(fetch(`${server.url}/healthz`));
    await stream.body?.cancel().catch(() => undefined);
    await handler.close();
  });
});

describe('streamAtOnce', () => {
  it('marks SSE responses chunked (so the adapter sends headers at once) and leaves other responses alone', async () => {
    const sse = new Response('data: 1\n\n', { status: 200, headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' } });
    const marked = streamAtOnce(sse);
    assert.equal(marked.headers.get('transfer-encoding'), 'chunked');
    assert.equal(marked.headers.get('mcp-session-id'), 's1');
    assert.equal(await marked.text(), 'data: 1\n\n');
    const json = new Response('{}', { status: 400, headers: { 'content-type': 'application/json' } });
    assert.equal(streamAtOnce(json), json);
    const empty = new Response(null, { status: 202 });
    assert.equal(streamAtOnce(empty), empty);
  });
});
