/** @module e2e/sse-upstream-fixture.test: the legacy HTTP+SSE fixture speaks the 2024-11-05 transport (checked without the gateway). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type SseEvent, SseEventParser } from '../../src/upstream/transport/sse/sse-events.js';
import { type HttpUpstream, startSseUpstream } from './harness/upstreams.js';

/** Reads SSE events off `body` one at a time, each bounded by `timeoutMs`. */
function eventReader(body: ReadableStream<Uint8Array>, timeoutMs = 5_000): () => Promise<SseEvent> {
  const reader = body.getReader();
  const parser = new SseEventParser();
  const queue: SseEvent[] = [];
  return async () => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const event = queue.shift();
      if (event) {
        if (event.data !== '') return event;
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no SSE event within ${timeoutMs} ms`)), Math.max(1, deadline - Date.now()));
      });
      const { done, value } = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer));
      if (done) throw new Error('the SSE stream ended');
      queue.push(...parser.push(value));
    }
  };
}

describe('sse-upstream fixture (2024-11-05 HTTP+SSE)', () => {
  let fixture: HttpUpstream;
  before(async () => {
    fixture = await startSseUpstream();
  });
  after(() => fixture?.stop());

  test('GET /sse announces the POST endpoint first; POSTs get 202 and every answer is an `event: message` on the stream', async (t) => {
    const abort = new AbortController();
    t.after(() => abort.abort());
    const stream = await fetch(fixture.url, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(stream.body);
    const next = eventReader(stream.body);

    const endpoint = await next();
    assert.equal(endpoint.event, 'endpoint');
    assert.match(endpoint.data, /^\/messages\?sessionId=[\w-]+$/);
    const postUrl = new URL(endpoint.data, fixture.url);

    const post = (message: unknown): Promise<Response> =>
      fetch(postUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'fixture-test', version: '1' } },
    });
    assert.equal(init.status, 202);
    const initialized = await next();
    assert.equal(initialized.event, 'message');
    const answer = JSON.parse(initialized.data) as { id: number; result: { protocolVersion: string; serverInfo: { name: string } } };
    assert.equal(answer.id, 1);
    assert.equal(answer.result.protocolVersion, '2024-11-05');
    assert.equal(answer.result.serverInfo.name, 'sse-upstream');

    assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
    assert.equal((await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).status, 202);
    const listed = await next();
    assert.equal(listed.event, 'message');
    const tools = (JSON.parse(listed.data) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
    assert.deepEqual(tools.sort(), ['confirm_action', 'echo']);
  });

  test('a POST for an unknown session gets 404; a body that is not JSON-RPC gets 400', async (t) => {
    const unknown = await fetch(new URL('/messages?sessionId=nope', fixture.url), { method: 'POST', body: '{"jsonrpc":"2.0","method":"ping","id":1}' });
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();

    const abort = new AbortController();
    t.after(() => abort.abort());
    const stream = await fetch(fixture.url, { signal: abort.signal });
    assert.ok(stream.body);
    const endpoint = await eventReader(stream.body)();
    const bad = await fetch(new URL(endpoint.data, fixture.url), { method: 'POST', body: '{"not":"json-rpc"}' });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  });
});
