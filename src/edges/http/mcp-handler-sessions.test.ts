/** @module Host session lifecycle on the Streamable HTTP edge: initialize, DELETE, gateway-side close, idle timeout, shutdown. */

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';

import { eventually } from '../../core/testing/deadlines.js';
import { createMcpHttpHandler } from './mcp-handler.js';
import { FakeGateway } from './testing/fake-gateway.js';
import { BASE, initializeBody, mcpPost, messagesOf, openTestSession, readSse } from './testing/sse.js';
import { testHttpSettings } from './testing/http-settings.js';

function setup(sessionIdleTimeoutMs = 0) {
  const gateway = new FakeGateway();
  const handler = createMcpHttpHandler(gateway, testHttpSettings({ sessionIdleTimeoutMs }));
  return { gateway, handler, handle: (req: Request) => handler.handle(req) };
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const getStream = (headers: Record<string, string>) => new Request(`${BASE}/mcp`, { headers: { accept: 'text/event-stream', ...headers } });
const deleteSession = (headers: Record<string, string>) => new Request(`${BASE}/mcp`, { method: 'DELETE', headers });

async function pingStatus(handle: (req: Request) => Promise<Response>, headers: Record<string, string>, id: number): Promise<number> {
  const response = await handle(mcpPost(ping(id), headers));
  await response.body?.cancel();
  return response.status;
}

describe('HTTP host sessions', () => {
  it('initialize opens one gateway session and answers on an SSE stream with a fresh Mcp-Session-Id', async () => {
    const { gateway, handle } = setup();
    const response = await handle(mcpPost(initializeBody(0, '2025-06-18')));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const sessionId = response.headers.get('mcp-session-id');
    assert.match(sessionId ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const messages = messagesOf(await readSse(response).rest());
    assert.deepEqual(messages, [
      {
        jsonrpc: '2.0',
        id: 0,
        result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'fake-gateway', version: '0.0.0' } },
      },
    ]);
    assert.equal(gateway.sessions.length, 1);
    assert.equal(gateway.last.received[0] && 'method' in gateway.last.received[0] ? gateway.last.received[0].method : undefined, 'initialize');
  });

  it('keeps sessions apart: each initialize gets its own id and gateway session', async () => {
    const { gateway, handle } = setup();
    const a = await openTestSession(handle);
    const b = await openTestSession(handle);
    assert.notEqual(a.sessionId, b.sessionId);
    assert.equal(gateway.sessions.length, 2);
    assert.equal(await pingStatus(handle, b.headers, 5), 200);
    const [first, second] = gateway.sessions;
    assert.ok(second?.received.some((m) => 'id' in m && m.id === 5));
    assert.ok(!first?.received.some((m) => 'id' in m && m.id === 5));
  });

  it('answers a notification with 202 and no body, and hands it to the gateway', async () => {
    const { gateway, handle } = setup();
    const { headers } = await openTestSession(handle);
    const response = await handle(mcpPost({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, headers));
    assert.equal(response.status, 202);
    assert.equal(await response.text(), '');
    assert.deepEqual(gateway.last.received.at(-1), { jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
  });

  it('DELETE ends the session: 200, the gateway session is closed, streams end, later requests get 404', async () => {
    const { gateway, handle } = setup();
    const { headers } = await openTestSession(handle);
    const stream = await handle(getStream(headers));
    assert.equal(stream.status, 200);
    const deleted = await handle(deleteSession(headers));
    assert.equal(deleted.status, 200);
    assert.equal(gateway.last.closed, true);
    assert.deepEqual(await readSse(stream).rest(), []);
    assert.equal(await pingStatus(handle, headers, 1), 404);
    assert.equal((await handle(deleteSession(headers))).status, 404);
  });

  it('a gateway-side close ends the HTTP session too', async () => {
    const { gateway, handle } = setup();
    const { headers } = await openTestSession(handle);
    const stream = await handle(getStream(headers));
    gateway.last.closeFromGateway();
    assert.deepEqual(await readSse(stream).rest(), []);
    assert.equal(await pingStatus(handle, headers, 1), 404);
  });

  it('closes a session that stays idle longer than sessionIdleTimeoutMs', async () => {
    const { gateway, handle } = setup(60);
    const { headers } = await openTestSession(handle);
    await sleep(150);
    assert.equal(gateway.last.closed, true);
    assert.equal(await pingStatus(handle, headers, 1), 404);
  });

  it('measures idleness from the last request on the session', async () => {
    const { gateway, handle } = setup(150);
    const { headers } = await openTestSession(handle);
    for (let i = 0; i < 5; i++) {
      await sleep(60);
      assert.equal(await pingStatus(handle, headers, i), 200, `ping ${i}`);
    }
    assert.equal(gateway.last.closed, false);
    await sleep(300);
    assert.equal(gateway.last.closed, true);
  });

  it('item 16: a call in flight longer than the idle timeout keeps its session, and its result reaches the host', async () => {
    const { gateway, handle } = setup(80);
    const { headers } = await openTestSession(handle);
    const call = await handle(mcpPost({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'hold' } }, headers));
    const stream = readSse(call);
    assert.equal((await stream.nextMessage())?.method, 'notifications/progress');
    await sleep(400);
    assert.equal(gateway.last.closed, false, 'a session with a call in flight is not idle');
    gateway.last.release(3);
    const rest = messagesOf(await stream.rest());
    assert.deepEqual(rest.map((m) => m.method ?? m.id), ['notifications/progress', 3]);
    assert.equal(await pingStatus(handle, headers, 4), 200);
    await eventually(() => gateway.last.closed, 'the session, idle again, to close');
  });

  it('item 16: an open GET stream keeps its session; once the host drops it the session can go idle', async () => {
    const { gateway, handle } = setup(80);
    const { headers } = await openTestSession(handle);
    const stream = await handle(getStream(headers));
    assert.equal(stream.status, 200);
    await sleep(400);
    assert.equal(gateway.last.closed, false, 'a session with an open GET stream is not idle');
    gateway.last.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const reader = readSse(stream);
    assert.equal((await reader.nextMessage())?.method, 'notifications/tools/list_changed');
    await reader.cancel();
    await eventually(() => gateway.last.closed, 'the session without its stream to close');
  });

  it('item 16: messages flowing from the gateway keep a session alive; once they stop it can go idle', async () => {
    const { gateway, handle } = setup(100);
    await openTestSession(handle);
    for (let i = 0; i < 10; i++) {
      await sleep(40);
      gateway.last.push({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } });
    }
    assert.equal(gateway.last.closed, false, 'a session with notifications flowing is not idle');
    await eventually(() => gateway.last.closed, 'the quiet session to close');
  });

  it('never closes idle sessions when sessionIdleTimeoutMs is 0', async () => {
    const { gateway, handle } = setup(0);
    const { headers } = await openTestSession(handle);
    await sleep(50);
    assert.equal(await pingStatus(handle, headers, 1), 200);
    assert.equal(gateway.last.closed, false);
  });

  it('close() ends every session and its open streams', async () => {
    const { gateway, handler, handle } = setup();
    const a = await openTestSession(handle);
    const b = await openTestSession(handle);
    const stream = await handle(getStream(a.headers));
    const pending = await handle(mcpPost({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'hold' } }, b.headers));
    await handler.close();
    assert.deepEqual(gateway.sessions.map((s) => s.closed), [true, true]);
    assert.deepEqual(await readSse(stream).rest(), []);
    const held = messagesOf(await readSse(pending).rest());
    assert.deepEqual(held.map((m) => m.method), ['notifications/progress']);
  });
});
