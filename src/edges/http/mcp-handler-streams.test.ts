/** @module SSE behaviour of the Streamable HTTP edge: related messages on POST streams, server-to-client requests, the GET stream, resumption. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { createMcpHttpHandler } from './mcp-handler.js';
import { FakeGateway } from './testing/fake-gateway.js';
import { BASE, mcpPost, messagesOf, openTestSession, readSse } from './testing/sse.js';
import { testHttpSettings } from './testing/http-settings.js';

function setup() {
  const gateway = new FakeGateway();
  const handler = createMcpHttpHandler(gateway, testHttpSettings());
  return { gateway, handle: (req: Request) => handler.handle(req) };
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const getStream = (headers: Record<string, string>) => new Request(`${BASE}/mcp`, { headers: { accept: 'text/event-stream', ...headers } });

describe('HTTP SSE streams', () => {
  it('a POST stream carries the related notification before the final response, then ends', async () => {
    const { handle } = setup();
    const { headers } = await openTestSession(handle);
    const response = await handle(mcpPost(call(1, 'echo', { text: 'hello' }), headers));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const events = await readSse(response).rest();
    assert.equal(events[0]?.data, '', 'a priming event comes first on 2025-11-25');
    assert.ok(events.every((e) => e.id !== undefined && e.id !== ''), 'every event has an id');
    assert.deepEqual(messagesOf(events), [
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'echoing' } },
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hello' }] } },
    ]);
  });

  it('relays a server-to-client request on the POST stream and takes the answer as a 202 POST', async () => {
    const { gateway, handle } = setup();
    const { headers } = await openTestSession(handle);
    const response = await handle(mcpPost(call(2, 'ask'), headers));
    const stream = readSse(response);
    const question = await stream.nextMessage();
    assert.equal(question?.method, 'elicitation/create');
    assert.equal(question?.id, 'srv-1');
    assert.equal(gateway.last.expectsResponse('srv-1'), true);

    const answer = { jsonrpc: '2.0', id: 'srv-1', result: { action: 'accept', content: { queue: 'ops' } } };
    const posted = await handle(mcpPost(answer, headers));
    assert.equal(posted.status, 202);
    assert.deepEqual(gateway.last.received.at(-1), answer);

    assert.deepEqual(messagesOf(await stream.rest()), [
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '{"action":"accept","content":{"queue":"ops"}}' }] } },
    ]);
    const again = await handle(mcpPost(answer, headers));
    assert.equal(again.status, 400, 'an answer is taken once');
  });

  it('refuses a request whose id a request in flight on the session still holds (400 -32600); the older call keeps its stream and gets its own answer', async () => {
    const { handle } = setup();
    const { headers } = await openTestSession(handle);
    const older = readSse(await handle(mcpPost(call(7, 'ask'), headers)));
    assert.equal((await older.nextMessage())?.method, 'elicitation/create');

    const clash = await handle(mcpPost(call(7, 'echo', { text: 'second' }), headers));
    assert.equal(clash.status, 400);
    const body = (await clash.json()) as { id: unknown; error: { code: number; message: string } };
    assert.equal(body.id, 7);
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, /already in flight/);
    const batch = await handle(mcpPost([call(8, 'echo'), call(8, 'echo')], { ...headers }));
    assert.equal(batch.status, 400, 'a batch is refused on this 2025-11-25 session anyway');

    const answer = { jsonrpc: '2.0', id: 'srv-1', result: { action: 'accept', content: { queue: 'ops' } } };
    assert.equal((await handle(mcpPost(answer, headers))).status, 202);
    assert.deepEqual(messagesOf(await older.rest()), [
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: '{"action":"accept","content":{"queue":"ops"}}' }] } },
    ]);
    const reused = await handle(mcpPost(call(7, 'echo', { text: 'later' }), headers));
    assert.equal(reused.status, 200, 'an id is free again once its request is answered');
  });

  it('refuses an answer the gateway finds invalid with 400 -32602 and hands it in once: the session refuses it, and settles it (issue 11 item 13); a second answer is unknown', async () => {
    const { gateway, handle } = setup();
    const { headers } = await openTestSession(handle);
    const stream = readSse(await handle(mcpPost(call(3, 'ask'), headers)));
    const question = await stream.nextMessage();
    const bad = { jsonrpc: '2.0', id: question?.id, result: { action: 'accept', content: {}, invalid: true } };
    const refused = await handle(mcpPost(bad, headers));
    assert.equal(refused.status, 400);
    const body = (await refused.json()) as { error: { code: number; message: string } };
    assert.equal(body.error.code, -32602);
    assert.match(body.error.message, /field "invalid"/);
    assert.deepEqual(gateway.last.admitted, [bad], 'the session settled the question');
    assert.ok(!gateway.last.received.some((m) => !('method' in m) && m.id === question?.id), 'the refused answer is not handed on');
    const rest = messagesOf(await stream.rest());
    assert.equal((rest.at(-1) as { result?: { isError?: boolean } }).result?.isError, true, 'the call ended at once');
    const good = { jsonrpc: '2.0', id: question?.id, result: { action: 'accept', content: { queue: 'ops' } } };
    const late = await handle(mcpPost(good, headers));
    assert.equal(late.status, 400);
    assert.equal(((await late.json()) as { error: { code: number } }).error.code, -32600);
  });

  it('delivers unrelated messages on the GET stream and allows only one GET stream', async () => {
    const { gateway, handle } = setup();
    const { headers } = await openTestSession(handle);
    const response = await handle(getStream(headers));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const stream = readSse(response);
    gateway.last.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    gateway.last.push({ jsonrpc: '2.0', id: 'srv-ping', method: 'ping' });
    assert.deepEqual(await stream.nextMessage(), { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    assert.deepEqual(await stream.nextMessage(), { jsonrpc: '2.0', id: 'srv-ping', method: 'ping' });
    const second = await handle(getStream(headers));
    assert.equal(second.status, 409);
    await stream.cancel();
  });

  it('tells the gateway whether the host holds a GET stream open (for questions outside its calls)', async () => {
    const { gateway, handle } = setup();
    const { headers } = await openTestSession(handle);
    const canReach = () => gateway.last.channel.canReachOutsideCalls?.();
    assert.equal(canReach(), false);
    const stream = readSse(await handle(getStream(headers)));
    assert.equal(canReach(), true);
    gateway.last.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    assert.deepEqual(await stream.nextMessage(), { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await stream.cancel();
    assert.equal(canReach(), false);
  });

  it('resumes a broken POST stream with GET + Last-Event-ID, replaying what was missed', async () => {
    const { gateway, handle } = setup();
    const { headers } = await openTestSession(handle);
    const response = await handle(mcpPost(call(3, 'hold'), headers));
    const stream = readSse(response);
    assert.deepEqual((await stream.nextMessage())?.params, { progressToken: 3, progress: 1 });
    const lastSeen = stream.lastEventId;
    assert.ok(lastSeen);
    await stream.cancel();

    gateway.last.release(3, 'done while away');
    const resumed = await handle(getStream({ ...headers, 'last-event-id': lastSeen }));
    assert.equal(resumed.status, 200);
    assert.deepEqual(messagesOf(await readSse(resumed).rest()), [
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 3, progress: 2 } },
      { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'done while away' }] } },
    ]);
  });

  it('resumes the GET stream with Last-Event-ID', async () => {
    const { gateway, handle } = setup();
    const { headers } = await openTestSession(handle);
    const stream = readSse(await handle(getStream(headers)));
    gateway.last.push({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 1 } });
    await stream.nextMessage();
    const lastSeen = stream.lastEventId ?? '';
    await stream.cancel();
    gateway.last.push({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 2 } });
    gateway.last.push({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 3 } });

    const resumed = readSse(await handle(getStream({ ...headers, 'last-event-id': lastSeen })));
    assert.deepEqual((await resumed.nextMessage())?.params, { data: 2 });
    assert.deepEqual((await resumed.nextMessage())?.params, { data: 3 });
    gateway.last.push({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 4 } });
    assert.deepEqual((await resumed.nextMessage())?.params, { data: 4 }, 'the resumed stream stays live');
    await resumed.cancel();
  });

  it('refuses a Last-Event-ID the session never issued', async () => {
    const { handle } = setup();
    const { headers } = await openTestSession(handle);
    const response = await handle(getStream({ ...headers, 'last-event-id': '999-999' }));
    assert.equal(response.status, 400);
  });
});
