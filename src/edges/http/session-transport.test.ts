/** @module The session transport on its own: stream routing, priming, resumption, coalescing, keep-alive and close. */

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { JsonRpcMessage, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { LEGACY_REVISIONS } from '../../protocol/revisions.js';
import { SessionTransport } from './session-transport.js';
import type { SessionTransportOptions } from './session-transport.js';
import { messagesOf, readSse } from './testing/sse.js';

function setup(options: Partial<SessionTransportOptions> = {}) {
  const received: JsonRpcMessage[] = [];
  const undeliverable: JsonRpcMessage[] = [];
  const transport = new SessionTransport({
    maxEventsPerStream: 100,
    knownRevisions: LEGACY_REVISIONS,
    onMessage: (message) => void received.push(message),
    onUndeliverable: (message) => void undeliverable.push(message),
    ...options,
  });
  return { transport, received, undeliverable };
}

const request = (id: number, method = 'tools/call'): JsonRpcRequest => ({ jsonrpc: '2.0', id, method });
const post = (transport: SessionTransport, id: number, version = '2025-11-25') => transport.post({ kind: 'request', message: request(id) }, version);
const progress = (token: number, n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: n } });
const result = (id: number): JsonRpcMessage => ({ jsonrpc: '2.0', id, result: { done: id } });

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Whether what `ref` points to is collected once nothing but the weak reference holds it. */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 5 && ref.deref() !== undefined; i++) {
    await sleep(0);
    gc();
  }
  return ref.deref() === undefined;
}

describe('SessionTransport', () => {
  it('answers a request POST with an SSE stream that ends after its response, and hands the request on', async () => {
    const { transport, received } = setup();
    transport.sessionId = 's-1';
    const response = post(transport, 1);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    assert.equal(response.headers.get('mcp-session-id'), 's-1');
    assert.deepEqual(received, [request(1)]);
    transport.send(progress(1, 1), 1);
    transport.send(result(1), 1);
    const events = await readSse(response).rest();
    assert.equal(events[0]?.data, '', 'priming event');
    assert.deepEqual(messagesOf(events), [progress(1, 1), result(1)]);
    assert.equal(new Set(events.map((e) => e.id)).size, 3, 'distinct event ids');
  });

  it('answers a notification or response POST with 202 and no body', async () => {
    const { transport, received } = setup();
    const response = transport.post({ kind: 'notification', message: { jsonrpc: '2.0', method: 'notifications/initialized' } }, '2025-11-25');
    assert.equal(response.status, 202);
    assert.equal(response.body, null);
    assert.equal(received.length, 1);
  });

  it('primes POST streams only for known revisions from 2025-11-25 on', async () => {
    for (const [version, primed] of [['2025-11-25', true], ['2025-06-18', false], ['2025-03-26', false], ['2099-01-01', false]] as const) {
      const { transport } = setup();
      const response = post(transport, 1, version);
      transport.send(result(1));
      const events = await readSse(response).rest();
      assert.equal(events[0]?.data === '', primed, version);
    }
  });

  it('sends unrelated messages, and related ones whose request is answered, on the GET stream', async () => {
    const { transport } = setup();
    const done = post(transport, 1);
    transport.send(result(1), 1);
    await readSse(done).rest();
    assert.equal(transport.hasStandaloneStream, false);
    const stream = readSse(transport.get(null));
    assert.equal(transport.hasStandaloneStream, true);
    transport.send(progress(1, 9), 1);
    transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    assert.deepEqual(await stream.nextMessage(), progress(1, 9));
    assert.deepEqual(await stream.nextMessage(), { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await stream.cancel();
    assert.equal(transport.hasStandaloneStream, false);
  });

  it('drops a response whose request has no stream, reporting it, and never puts it on the GET stream', async () => {
    const { transport, undeliverable } = setup();
    const stream = readSse(transport.get(null));
    transport.send(result(42), 42);
    transport.send(progress(0, 1));
    assert.deepEqual(undeliverable, [result(42)]);
    assert.deepEqual(await stream.nextMessage(), progress(0, 1));
    await stream.cancel();
  });

  it('keeps storing a dropped POST stream; GET + Last-Event-ID replays it, stays live, and ends after the response', async () => {
    const { transport } = setup();
    const first = readSse(post(transport, 3));
    transport.send(progress(3, 1), 3);
    assert.deepEqual(await first.nextMessage(), progress(3, 1));
    const lastSeen = first.lastEventId ?? '';
    await first.cancel();
    transport.send(progress(3, 2), 3);

    const resumed = transport.get(lastSeen);
    assert.equal(resumed.status, 200);
    assert.equal(transport.hasStandaloneStream, false, 'a resumed POST stream is not the standalone stream');
    const again = readSse(resumed);
    assert.deepEqual(await again.nextMessage(), progress(3, 2));
    transport.send(progress(3, 3), 3);
    assert.deepEqual(await again.nextMessage(), progress(3, 3));
    transport.send(result(3), 3);
    assert.deepEqual(messagesOf(await again.rest()), [result(3)]);
  });

  it('refuses to resume a stream the host still holds (409) and an id it never issued (400)', async () => {
    const { transport } = setup();
    const open = readSse(post(transport, 4));
    transport.send(progress(4, 1), 4);
    await open.nextMessage();
    assert.equal(transport.get(open.lastEventId ?? '').status, 409);
    assert.equal(transport.get('77-1').status, 400);
    assert.equal(transport.get('nonsense').status, 400);
    await open.cancel();
  });

  it('tells which ids are in flight (the edge refuses a request that reuses one) until their response is sent', async () => {
    const { transport } = setup();
    const response = post(transport, 5);
    assert.equal(transport.isInFlight(5), true);
    assert.equal(transport.isInFlight('5'), false, 'ids are compared as JSON-RPC ids, not as text');
    transport.send(result(5), 5);
    assert.deepEqual(messagesOf(await readSse(response).rest()), [result(5)]);
    assert.equal(transport.isInFlight(5), false);
  });

  it('coalesces events written while the host is not reading into one chunk', async () => {
    const { transport } = setup();
    const response = post(transport, 6);
    transport.send(progress(6, 1), 6);
    transport.send(progress(6, 2), 6);
    transport.send(result(6), 6);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    assert.equal(chunks.length, 1);
    assert.equal(new TextDecoder().decode(chunks[0]).match(/^data: /gm)?.length, 4);
  });

  it('sends a keep-alive comment on open streams', async () => {
    const { transport } = setup({ keepAliveMs: 10 });
    const response = transport.get(null);
    await sleep(40);
    transport.close();
    assert.match(await response.text(), /^: keepalive\n\n/);
  });

  it('holds no connection of a stream whose response was sent: an idle session keeps only its stored events', async () => {
    const { transport } = setup({ keepAliveMs: 10 });
    // In a function of its own, so that no register of this test holds the response.
    const answer = async (id: number): Promise<WeakRef<object>> => {
      const response = post(transport, id);
      transport.send(result(id), id);
      assert.deepEqual(messagesOf(await readSse(response).rest()), [result(id)]);
      return new WeakRef(response.body as object);
    };
    const bodies = [await answer(1), await answer(2)];
    for (const body of bodies) assert.ok(await collected(body), 'the ended stream is collectable while the session lives');
    transport.close();
  });

  it('sends keep-alives on a stream opened after every earlier one ended', async () => {
    const { transport } = setup({ keepAliveMs: 10 });
    const first = post(transport, 1);
    transport.send(result(1), 1);
    await readSse(first).rest();
    await sleep(30);
    const standalone = transport.get(null);
    await sleep(40);
    transport.close();
    assert.match(await standalone.text(), /^: keepalive\n\n/);
  });

  it('close() ends every stream and drops later sends', async () => {
    const { transport, undeliverable } = setup();
    const pending = post(transport, 7);
    const standalone = transport.get(null);
    transport.close();
    transport.send(result(7), 7);
    transport.send(progress(0, 1));
    assert.deepEqual(messagesOf(await readSse(pending).rest()), []);
    assert.deepEqual(await readSse(standalone).rest(), []);
    assert.equal(transport.hasStandaloneStream, false);
    assert.deepEqual(undeliverable, []);
  });
});
