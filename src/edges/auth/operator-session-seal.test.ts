/** @module The console's sealed cookies: what one sealer seals another with the same secret opens; tampering, another purpose, another secret or expiry opens nothing. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ManualClock } from '../../core/clock.js';
import { createSealer, openSession, sealSession } from './operator-session-seal.js';

const SECRET = 'a-cookie-secret-of-at-least-32-characters!';
const ADA = { issuer: 'https://id.example', subject: 'ada', name: 'Ada', groups: ['desk-ops'], scopes: ['openid'] };

test('a session sealed by one instance opens on another that shares the secret, with the operator and the CSRF token', async () => {
  const clock = new ManualClock();
  const { cookie, csrf } = await sealSession(createSealer(SECRET, clock.date.bind(clock)), ADA, 3600);
  assert.match(cookie, /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*){4}$/, 'a compact JWE: cookie-safe');
  assert.ok(!cookie.includes('ada') && !Buffer.from(cookie.split('.')[0] ?? '', 'base64url').toString().includes('ada'), 'encrypted, not merely signed');
  const opened = await openSession(createSealer(SECRET, clock.date.bind(clock)), cookie);
  assert.deepEqual(opened, { operator: ADA, csrf, expiresAt: Math.floor(clock.now() / 1000) + 3600 });
  assert.equal(csrf.length, 43);
});

test('a changed byte, another secret, the sign-in purpose, or a cookie past its TTL opens to nothing', async () => {
  const clock = new ManualClock();
  const sealer = createSealer(SECRET, clock.date.bind(clock));
  const { cookie } = await sealSession(sealer, ADA, 60);
  const parts = cookie.split('.');
  const cipher = parts[3] ?? '';
  const flipped = [...parts.slice(0, 3), `${cipher[0] === 'A' ? 'B' : 'A'}${cipher.slice(1)}`, parts[4]].join('.');
  assert.equal(await openSession(sealer, flipped), undefined, 'tampered');
  assert.equal(await openSession(createSealer(`${SECRET}x`, clock.date.bind(clock)), cookie), undefined, 'another secret');
  assert.equal(await openSession(createSealer(undefined, clock.date.bind(clock)), cookie), undefined, 'a per-process key');
  assert.equal(await sealer.open(cookie, 'sign-in'), undefined, 'a session is not a sign-in');
  assert.equal(await sealer.open(await sealer.seal({ tx: {} }, 'sign-in', 60), 'session'), undefined, 'nor the other way');
  assert.equal(await openSession(sealer, 'not-a-cookie'), undefined);
  assert.equal(await openSession(sealer, 'x'.repeat(9000)), undefined);
  clock.advance(59_000);
  assert.ok(await openSession(sealer, cookie), 'still valid just before');
  clock.advance(2_000);
  assert.equal(await openSession(sealer, cookie), undefined, 'expired');
});
