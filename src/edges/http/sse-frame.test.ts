/** @module Tests for the one SSE writer: field order, multi-line data, comments, refused line breaks, and the keep-alive timer. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { sseComment, sseEvent, sseJsonEvent, startSseKeepAlive } from './sse-frame.js';

describe('sseEvent', () => {
  it('writes retry, event, id and data lines, then the blank line that dispatches the event', () => {
    assert.equal(sseEvent({ event: 'ready', retry: 2000, data: '{}' }), 'retry: 2000\nevent: ready\ndata: {}\n\n');
    assert.equal(sseEvent({ event: 'message', id: '7', data: 'x' }), 'event: message\nid: 7\ndata: x\n\n');
  });

  it('writes an empty data line for an event with no data (the priming event)', () => {
    assert.equal(sseEvent({ id: '1', data: '' }), 'id: 1\ndata: \n\n');
  });

  it('splits data on every kind of line break, so no line of it can end the event early', () => {
    assert.equal(sseEvent({ data: 'a\nb\r\nc\rd' }), 'data: a\ndata: b\ndata: c\ndata: d\n\n');
  });

  it('refuses a line break in the event name, the id or a comment', () => {
    assert.throws(() => sseEvent({ event: 'a\nb', data: '' }), /one line/);
    assert.throws(() => sseEvent({ id: '1\r', data: '' }), /one line/);
    assert.throws(() => sseComment('a\nb'), /one line/);
  });

  it('writes JSON data on one line, as `event: message` unless told otherwise', () => {
    assert.equal(sseJsonEvent({ text: 'two\nlines' }), 'event: message\ndata: {"text":"two\\nlines"}\n\n');
    assert.equal(sseJsonEvent([1], { event: 'created' }), 'event: created\ndata: [1]\n\n');
    assert.equal(sseComment('keep-alive'), ': keep-alive\n\n');
  });

  it('writes a JSON event exactly as sseEvent writes the same fields and data', () => {
    const fields = { retry: 5, event: 'message', id: '3' };
    const data = { jsonrpc: '2.0', id: 1, result: { text: 'a\r\nb\u2028c' } };
    assert.equal(sseJsonEvent(data, fields), sseEvent({ ...fields, data: JSON.stringify(data) }));
    assert.throws(() => sseJsonEvent(data, { id: '1\n' }), /one line/);
    assert.throws(() => sseJsonEvent(undefined), /needs a JSON value/);
  });
});

describe('startSseKeepAlive', () => {
  it('writes the comment to every sink of the moment until stopped', async () => {
    const written: string[] = [];
    const sinks = new Set([{ write: (text: string) => written.push(`a${text}`) }]);
    const stop = startSseKeepAlive(() => sinks, { periodMs: 5, text: 'ping' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    sinks.add({ write: (text: string) => written.push(`b${text}`) });
    await new Promise((resolve) => setTimeout(resolve, 30));
    stop();
    const count = written.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(written.length, count, 'nothing after stop');
    assert.ok(written.includes('a: ping\n\n') && written.includes('b: ping\n\n'), JSON.stringify(written));
  });

  it('writes nothing for a period of 0', async () => {
    const written: string[] = [];
    const stop = startSseKeepAlive(() => [{ write: (text: string) => written.push(text) }], { periodMs: 0, text: 'ping' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    assert.deepEqual(written, []);
  });
});
