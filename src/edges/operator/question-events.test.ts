/** @module GET /api/questions/events: ready first, then the desk's events serialised, keep-alives, and no listener left after a disconnect or close(). */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { readSse } from '../http/testing/sse.js';
import { createOperatorRoutes } from './operator-routes.js';
import { FakeOperatorDesk } from './testing/fake-desk.js';

const TOKEN = 'events-token';
const NOW = new Date('2025-06-01T12:34:56.000Z');

async function open(keepAliveMs = 60_000) {
  const desk = new FakeOperatorDesk();
  const routes = createOperatorRoutes({ desk, token: TOKEN, now: () => NOW, keepAliveMs });
  const response = await routes.handle(new Request('http://127.0.0.1/api/questions/events', { headers: { authorization: `Bearer ${TOKEN}` } }));
  assert.ok(response);
  return { desk, routes, response };
}

describe('GET /api/questions/events', () => {
  it('sends ready with the server time first, then created and updated events with the serialised question', async () => {
    const { desk, routes, response } = await open();
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const stream = readSse(response);
    assert.deepEqual(await stream.next(), { event: 'ready', data: JSON.stringify({ serverTime: NOW.toISOString() }) });
    const question = desk.add({ origin: { upstream: 'desk', tool: 'restart_service' } });
    const created = await stream.next();
    assert.equal(created?.event, 'created');
    const body = JSON.parse(created?.data ?? '{}') as { type: string; question: Record<string, unknown> };
    assert.equal(body.type, 'created');
    assert.equal(body.question.id, question.id);
    assert.equal(body.question.upstream, 'desk');
    assert.equal(body.question.tool, 'restart_service');
    assert.equal('origin' in body.question, false, 'the same serialiser as the REST API');
    desk.settle(question.id, 'expired');
    const updated = await stream.next();
    assert.equal(updated?.event, 'updated');
    assert.equal((JSON.parse(updated?.data ?? '{}') as { question: { state: string } }).question.state, 'expired');
    routes.close();
  });

  it('writes a keep-alive comment on an idle stream', async () => {
    const { routes, response } = await open(20);
    const reader = response.body?.getReader();
    assert.ok(reader);
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(': keep-alive\n\n')) {
      const { done, value } = await reader.read();
      assert.equal(done, false, 'the stream stays open');
      text += decoder.decode(value, { stream: true });
    }
    routes.close();
  });

  it('unsubscribes from the desk when the client disconnects', async () => {
    const { desk, response } = await open();
    assert.equal(desk.listenerCount, 1);
    const stream = readSse(response);
    await stream.next();
    await stream.cancel();
    assert.equal(desk.listenerCount, 0);
    desk.add(); // nobody listens: nothing to write, nothing thrown
  });

  it('ends every stream and unsubscribes on close()', async () => {
    const { desk, routes, response } = await open();
    const second = await routes.handle(new Request('http://127.0.0.1/api/questions/events', { headers: { authorization: `Bearer ${TOKEN}` } }));
    assert.ok(second);
    assert.equal(desk.listenerCount, 2);
    routes.close();
    assert.equal(desk.listenerCount, 0);
    const events = await readSse(response).rest();
    assert.deepEqual(events.map((e) => e.event), ['ready']);
    await second.body?.cancel();
  });
});
