/** @module The incremental SSE parser: events split anywhere across chunks, every line ending, comments, multi-line data. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { SseParser } from './sse-parser.js';

function parseAll(chunks: string[]) {
  const parser = new SseParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

describe('SseParser', () => {
  const stream = 'retry: 2000\n: keep-alive\n\nid: 1\nevent: message\ndata: {"a":1}\n\ndata: line one\ndata: line two\n\n';
  const expected = [
    { event: 'message', id: '1', data: '{"a":1}' },
    { event: undefined, id: '1', data: 'line one\nline two' },
  ];

  it('reads a whole stream in one chunk', () => {
    assert.deepEqual(parseAll([stream]), expected);
  });

  it('reads the same stream cut at every position', () => {
    for (let cut = 1; cut < stream.length; cut++) {
      assert.deepEqual(parseAll([stream.slice(0, cut), stream.slice(cut)]), expected, `cut at ${cut}`);
    }
  });

  it('takes \\r\\n and \\r line endings, even with the \\r\\n split across chunks', () => {
    assert.deepEqual(parseAll(['data: x\r', '\n\r', '\ndata: y\r\r']), [
      { event: undefined, id: undefined, data: 'x' },
      { event: undefined, id: undefined, data: 'y' },
    ]);
  });

  it('drops comments, field-less blocks and an unterminated last event; keeps an empty data line as empty data', () => {
    assert.deepEqual(parseAll([': only a comment\n\nevent: x\n\ndata\n\ndata: cut off']), [{ event: undefined, id: undefined, data: '' }]);
  });

  it('keeps a colon inside the value and strips exactly one leading space', () => {
    assert.deepEqual(parseAll(['data:  {"t":"a:b"}\n\n']), [{ event: undefined, id: undefined, data: ' {"t":"a:b"}' }]);
  });
});
