/** @module incident-desk/testing/sse.test: the SSE reader used by the raw HTTP tests. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseSseEvent, sseMessages } from './sse.js';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

test('an event block yields its data; comments and empty priming events yield nothing', () => {
  assert.equal(parseSseEvent('event: message\ndata: {"a":1}'), '{"a":1}');
  assert.equal(parseSseEvent(': keep-alive'), undefined);
  assert.equal(parseSseEvent('id: 1\ndata:'), undefined);
  assert.equal(parseSseEvent('data: line one\ndata: line two'), 'line one\nline two');
});

test('events split across chunks and CRLF boundaries are reassembled in order', async () => {
  const body = streamOf('event: message\r\ndata: {"n"', ':1}\r\n\r\n: ping\n\ndata: {"n":2}\n', '\n');
  const seen: unknown[] = [];
  for await (const message of sseMessages(body)) seen.push(message);
  assert.deepEqual(seen, [{ n: 1 }, { n: 2 }]);
});
