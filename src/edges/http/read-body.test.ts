/** @module Tests for the capped body read: a declared length over the cap, within it, a lying one, and a body without one. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { readBodyCapped } from './read-body.js';

const post = (body: BodyInit, headers: Record<string, string> = {}): Request =>
  new Request('http://localhost/mcp', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

/** A body of `chunks` with no declared length (as chunked transfer encoding arrives). */
const streamed = (chunks: string[]): ReadableStream<Uint8Array> => new Blob(chunks).stream();

describe('readBodyCapped', () => {
  it('reads a body whose declared length is within the cap, whole', async () => {
    const result = await readBodyCapped(post('{"a":1}', { 'content-length': '7' }), 7);
    assert.equal(result.kind, 'ok');
    assert.equal(result.kind === 'ok' && new TextDecoder().decode(result.bytes), '{"a":1}');
  });

  it('refuses a declared length over the cap without reading', async () => {
    assert.deepEqual(await readBodyCapped(post('x'.repeat(10), { 'content-length': '10' }), 9), { kind: 'too-large' });
  });

  it('refuses a body longer than the cap even when its declared length says it fits', async () => {
    assert.deepEqual(await readBodyCapped(post(streamed(['x'.repeat(6), 'y'.repeat(6)]), { 'content-length': '5' }), 10), { kind: 'too-large' });
  });

  it('reads a body without a declared length chunk by chunk, under the cap', async () => {
    const ok = await readBodyCapped(post(streamed(['ab', 'cd'])), 4);
    assert.equal(ok.kind === 'ok' && new TextDecoder().decode(ok.bytes), 'abcd');
    assert.deepEqual(await readBodyCapped(post(streamed(['ab', 'cd', 'e'])), 4), { kind: 'too-large' });
  });
});
