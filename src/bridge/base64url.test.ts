/** @module Tests of strict base64url: round trips of every length, and every non-canonical spelling refused. */

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';

import { fromBase64url, toBase64url } from './base64url.js';

test('every byte string round-trips, lengths 0 to 64', () => {
  for (let length = 0; length <= 64; length++) {
    const bytes = randomBytes(length);
    const text = toBase64url(bytes);
    assert.match(text, /^[A-Za-z0-9_-]*$/);
    assert.deepEqual(fromBase64url(text), bytes, `length ${length}`);
  }
  const view = new Uint8Array(randomBytes(16).buffer, 4, 8);
  assert.deepEqual(fromBase64url(toBase64url(view)), Buffer.from(view), 'a view encodes only its own bytes');
});

test('non-canonical or foreign spellings are refused', () => {
  assert.deepEqual(fromBase64url('QQ'), Buffer.from('A'));
  assert.deepEqual(fromBase64url('QUI'), Buffer.from('AB'));
  const bad: [string, string][] = [
    ['QQ==', 'padding'],
    ['QQ=', 'padding'],
    ['Q', 'impossible length'],
    ['QR', 'stray bits in the last character'],
    ['QUJ', 'stray bits in the last character'],
    ['Q+/A', 'the standard alphabet'],
    ['QQ QQ', 'a space'],
    ['QQ\n', 'a newline'],
    ['QUJD!', 'a foreign character'],
  ];
  for (const [text, why] of bad) assert.equal(fromBase64url(text), undefined, `${JSON.stringify(text)}: ${why}`);
  assert.deepEqual(fromBase64url(''), Buffer.alloc(0));
});
