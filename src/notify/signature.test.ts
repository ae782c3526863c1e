/** @module Tests of the delivery signature: hex HMAC-SHA256 of the exact body, as a receiver recomputes it. */

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';

import { signatureOf } from './signature.js';

test('sha256=<hex HMAC-SHA256 of the body with the secret>', () => {
  const body = '{"id":"evt_1","type":"question.waiting"}';
  const expected = createHmac('sha256', 'a-secret-of-enough-length').update(body, 'utf8').digest('hex');
  assert.equal(signatureOf(body, 'a-secret-of-enough-length'), `sha256=${expected}`);
  // RFC 4231 test case 2 (key "Jefe").
  assert.equal(signatureOf('what do ya want for nothing?', 'Jefe'), 'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  assert.notEqual(signatureOf(`${body} `, 'a-secret-of-enough-length'), signatureOf(body, 'a-secret-of-enough-length'));
});
