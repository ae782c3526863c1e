/** @module Tests of the incremental SSE parser. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SseParser } from './sse-parser.js';

test('parses events split across chunks, multi-line data, ids, comments and priming events', () => {
  const parser = new SseParser();
  const bytes = new TextEncoder().encode(': comment\n\nid: 1\ndata:\n\nevent: message\nid: 2\ndata: {"a":\ndata: 1}\n\ndata: x\r\n\r\n');
  const events = [];
  for (let i = 0; i < bytes.length; i += 7) events.push(...parser.push(bytes.slice(i, i + 7)));
  assert.deepEqual(events, [
    { event: 'message', data: '', id: '1' },
    { event: 'message', data: '{"a":\n1}', id: '2' },
    { event: 'message', data: 'x' },
  ]);
});

test('remembers the last event id and the retry the server asked for, even on events without data', () => {
  const parser = new SseParser();
  assert.equal(parser.lastEventId, undefined);
  assert.equal(parser.retryMs, undefined);
  const events = parser.push(new TextEncoder().encode('id: e-1\nretry: 500\n\nretry: soon\ndata: x\n\n'));
  assert.deepEqual(events, [{ event: 'message', data: 'x' }]);
  assert.equal(parser.lastEventId, 'e-1');
  assert.equal(parser.retryMs, 500);
});
