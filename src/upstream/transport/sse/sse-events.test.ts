/** @module The one SSE parser: every line ending and mix of them, events cut anywhere across chunks, ids, retry, comments. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseSseText, readSseEvents, SseEventParser } from './sse-events.js';

function parseChunks(chunks: (string | Uint8Array)[]) {
  const parser = new SseEventParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

const plain = (data: string) => ({ event: undefined, id: undefined, data });

describe('SseEventParser', () => {
  const stream = 'retry: 2000\n: keep-alive\n\nid: 1\nevent: message\ndata: {"a":1}\n\ndata: line one\ndata: line two\n\n';
  const expected = [{ event: 'message', id: '1', data: '{"a":1}' }, plain('line one\nline two')];

  it('reads a whole stream in one chunk, and the same stream cut at every position', () => {
    assert.deepEqual(parseSseText(stream), expected);
    for (let cut = 1; cut < stream.length; cut++) {
      assert.deepEqual(parseChunks([stream.slice(0, cut), stream.slice(cut)]), expected, `cut at ${cut}`);
    }
  });

  it('ends an event on \\n\\r\\n and on every other mix of line endings, cut anywhere (issue 11 item 9)', () => {
    const text = 'data: a\n\r\ndata: b\r\n\ndata: c\r\rdata: d\r\n\r\ndata: e\n\rdata: f\r\n\rdata: g\n\n';
    const want = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(plain);
    assert.deepEqual(parseSseText(text), want);
    for (let cut = 1; cut < text.length; cut++) {
      assert.deepEqual(parseChunks([text.slice(0, cut), text.slice(cut)]), want, `cut at ${cut}`);
    }
  });

  it('decodes UTF-8 split across byte chunks, and ends a last line on a final \\r', () => {
    const bytes = new TextEncoder().encode('data: é€\r\r');
    assert.deepEqual(parseChunks([...bytes].map((byte) => Uint8Array.of(byte))), [plain('é€')]);
  });

  it('keeps the last event id and the retry asked for; a priming event has empty data', () => {
    const parser = new SseEventParser();
    assert.equal(parser.lastEventId, undefined);
    const events = parser.push('id: p-1\nretry: 500\ndata:\n\nretry: soon\ndata: x\n\n');
    assert.deepEqual(events, [{ event: undefined, id: 'p-1', data: '' }, plain('x')]);
    assert.equal(parser.lastEventId, 'p-1');
    assert.equal(parser.retryMs, 500);
  });

  it('drops comments, field-less blocks and an unterminated last event; keeps a colon in the value and strips one space', () => {
    assert.deepEqual(parseSseText(': only a comment\n\nevent: x\n\ndata:  {"t":"a:b"}\n\ndata: cut off\n'), [plain(' {"t":"a:b"}')]);
  });
});

describe('readSseEvents', () => {
  it('yields the events of a body as they arrive and cancels the body when left early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\r\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const seen: string[] = [];
    for await (const event of readSseEvents(body)) {
      seen.push(event.data);
      if (seen.length === 2) break;
    }
    assert.deepEqual(seen, ['1', '2']);
    assert.equal(cancelled, true);
  });
});
