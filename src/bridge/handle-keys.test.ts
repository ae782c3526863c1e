/** @module Tests of handle keys: formats, refusals, derivation and rings. */

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';

import { deriveHandleKey, generateHandleKeyText, handleKeyFromText, handleKeyRing, handleKeyRingFromTexts } from './handle-keys.js';

const MATERIAL = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256));

test('the same material reads to the same key in every accepted spelling', () => {
  const expected = deriveHandleKey(MATERIAL).id;
  const spellings = [
    MATERIAL.toString('hex'),
    MATERIAL.toString('hex').toUpperCase(),
    `hex:${MATERIAL.toString('hex')}`,
    MATERIAL.toString('base64'),
    MATERIAL.toString('base64').replace(/=+$/, ''),
    MATERIAL.toString('base64url'),
    `base64:${MATERIAL.toString('base64')}`,
    `  ${MATERIAL.toString('base64')}\n`,
  ];
  for (const text of spellings) {
    const read = handleKeyFromText(text);
    assert.ok(read.ok, text);
    assert.equal(read.ok && read.key.id, expected, text);
  }
});

test('short, malformed or placeholder keys are refused with a reason', () => {
  const bad = [
    '',
    '   ',
    randomBytes(31).toString('base64'),
    randomBytes(16).toString('hex'),
    'hex:zz' + randomBytes(32).toString('hex'),
    'hex:' + randomBytes(32).toString('hex') + 'f',
    randomBytes(32).toString('base64') + '!',
    randomBytes(32).toString('base64').slice(0, 20) + ' ' + randomBytes(32).toString('base64'),
    'a'.repeat(64),
    Buffer.from('changeme'.repeat(8)).toString('base64'),
    'changeme-changeme-changeme-changeme-changeme',
    '0123456789abcdef'.repeat(4),
    'hex:' + '00112233'.repeat(8),
    'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz',
  ];
  for (const text of bad) {
    const read = handleKeyFromText(text);
    assert.equal(read.ok, false, JSON.stringify(text));
    assert.ok(!read.ok && read.reason.length > 0);
  }
});

test('derivation hides the material and is specific to it', () => {
  const key = deriveHandleKey(MATERIAL);
  assert.equal(key.secret.length, 32);
  assert.notDeepEqual(key.secret, MATERIAL);
  assert.match(key.id, /^[A-Za-z0-9_-]{11}$/);
  assert.notEqual(deriveHandleKey(Buffer.concat([MATERIAL, Buffer.from([0])])).id, key.id);
});

test('generated and random keys are accepted (the placeholder heuristic spares real keys)', () => {
  const texts = Array.from({ length: 50 }, generateHandleKeyText);
  assert.equal(new Set(texts).size, texts.length);
  for (const text of texts) assert.ok(handleKeyFromText(text).ok, text);
  for (let i = 0; i < 2000; i++) {
    const bytes = randomBytes(32);
    for (const text of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')]) assert.ok(handleKeyFromText(text).ok, text);
  }
});

test('a ring signs with the first key and verifies with all, once each', () => {
  const [a, b] = [generateHandleKeyText(), generateHandleKeyText()];
  const read = handleKeyRingFromTexts([a, b, a]);
  assert.ok(read.ok);
  if (!read.ok) return;
  const keyA = handleKeyFromText(a);
  assert.equal(keyA.ok && read.ring.signing.id, keyA.ok && keyA.key.id);
  assert.equal(read.ring.verifying.length, 2);
  const refused = handleKeyRingFromTexts([a, 'c2hvcnQ=']);
  assert.deepEqual(refused, { ok: false, index: 1, reason: 'the key has 5 bytes; at least 32 random bytes are needed' });
  assert.deepEqual(handleKeyRingFromTexts([]), { ok: false, index: 0, reason: 'no key given' });
  assert.throws(() => handleKeyRing([]), RangeError);
});
