/**
 * @module Issue 11 item 3 over real sockets: a client that trickles its headers is cut off after `http.headersTimeout`, one
 * that trickles its body after `http.requestTimeout`, the server keeps at most `http.maxConnections` connections, and an SSE stream held open past both timeouts keeps working.
 */

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';

import type { HttpSettings } from '../../config/types.js';
import { createMcpHttpHandler } from './mcp-handler.js';
import { startHttpServer } from './node-server.js';
import { FakeGateway } from './testing/fake-gateway.js';
import { initializeBody, messagesOf, POST_HEADERS, readSse } from './testing/sse.js';
import { testHttpSettings } from './testing/http-settings.js';

async function serve(http: Partial<HttpSettings>) {
  const gateway = new FakeGateway();
  const settings = testHttpSettings(http);
  const handler = createMcpHttpHandler(gateway, settings);
  const server = await startHttpServer(handler, { host: '127.0.0.1', port: 0 }, settings);
  return {
    gateway,
    server,
    async close() {
      await handler.close();
      await server.close();
    },
  };
}

/** A raw TCP connection that records whether the server closed it and what it sent. */
async function rawSocket(port: number): Promise<{ socket: Socket; closed: Promise<void>; isClosed(): boolean; received(): string }> {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => void (data += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closedPromise = new Promise<void>((resolve) => socket.once('close', () => ((closed = true), resolve())));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed: closedPromise, isClosed: () => closed, received: () => data };
}

test('a client sending one header line at a time is cut off once http.headersTimeout has passed', { timeout: 60_000 }, async (t) => {
  const edge = await serve({ headersTimeoutMs: 1000, requestTimeoutMs: 2000 });
  t.after(() => edge.close());
  const client = await rawSocket(edge.server.port);
  t.after(() => client.socket.destroy());
  client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  // Node's own default would let this go on for a minute; 40 lines take far longer than the 1 s allowed.
  let sent = 0;
  while (!client.isClosed() && sent < 40) {
    client.socket.write(`X-Trickle-${sent}: a\r\n`);
    sent += 1;
    await sleep(500);
  }
  assert.ok(client.isClosed(), `the server was still reading headers after ${sent} lines`);
  assert.doesNotMatch(client.received(), /^HTTP\/1\.1 200/, 'the trickled request was never served');
});

test('a client trickling its body is cut off once http.requestTimeout has passed', { timeout: 60_000 }, async (t) => {
  const edge = await serve({ headersTimeoutMs: 1000, requestTimeoutMs: 2000 });
  t.after(() => edge.close());
  const client = await rawSocket(edge.server.port);
  t.after(() => client.socket.destroy());
  const head = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n';
  client.socket.write(head);
  let sent = 0;
  while (!client.isClosed() && sent < 60) {
    client.socket.write(' ');
    sent += 1;
    await sleep(500);
  }
  assert.ok(client.isClosed(), `the server was still reading the body after ${sent} bytes: ${JSON.stringify(client.received())}`);
  assert.doesNotMatch(client.received(), /^HTTP\/1\.1 200/);
});

test('the server keeps at most http.maxConnections connections open; the next one is refused', { timeout: 30_000 }, async (t) => {
  const edge = await serve({ maxConnections: 2 });
  t.after(() => edge.close());
  const first = await rawSocket(edge.server.port);
  const second = await rawSocket(edge.server.port);
  t.after(() => (first.socket.destroy(), second.socket.destroy()));
  // The two accepted connections are served.
  first.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  const extra = await rawSocket(edge.server.port);
  t.after(() => extra.socket.destroy());
  extra.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await extra.closed;
  assert.equal(extra.received(), '', 'the connection over the cap got no answer');
  while (!/\r\n\r\n/.test(first.received())) await sleep(20);
  assert.match(first.received(), /^HTTP\/1\.1 200/);
  // Once one connection ends, a new one is served again.
  second.socket.destroy();
  await second.closed;
  let served = false;
  for (let attempt = 0; attempt < 50 && !served; attempt++) {
    const response = await fetch(`${edge.server.url}/healthz`, { headers: { connection: 'close' } }).catch(() => undefined);
    served = response?.status === 200;
    await response?.body?.cancel();
    if (!served) await sleep(100);
  }
  assert.ok(served, 'a connection under the cap is served');
});

test('an SSE stream held open past the header and request timeouts keeps working', { timeout: 30_000 }, async (t) => {
  const edge = await serve({ headersTimeoutMs: 500, requestTimeoutMs: 1000 });
  t.after(() => edge.close());
  const init = await fetch(`${edge.server.url}/mcp`, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(initializeBody()) });
  const sessionId = init.headers.get('mcp-session-id') ?? '';
  assert.equal(messagesOf(await readSse(init).rest()).length, 1);
  const stream = await fetch(`${edge.server.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } });
  assert.equal(stream.status, 200);
  const reader = readSse(stream);
  await sleep(3000);
  edge.gateway.last.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  assert.deepEqual(await reader.nextMessage(), { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  await reader.cancel();
});
