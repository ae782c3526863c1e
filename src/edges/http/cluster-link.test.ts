/** @module Tests of the cluster link's wire: owner-naming session ids and the signature on forwarded requests. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_CLOCK_SKEW_MS, ownedSessionId, ownerOfSessionId, signForward, verifyForward } from './cluster-link.js';

const SECRET = 'a-cluster-secret-of-at-least-32-characters';
const PARTS = { method: 'POST', target: '/messages?sessionId=abc', body: new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}'), clientAddress: '10.0.0.7' };

test('a session id names its owner, whatever characters the id has, and is visible ASCII', () => {
  for (const owner of ['gw-1', 'host.example:8080 /etc/switchboard.yaml', 'ünïcode']) {
    const id = ownedSessionId(owner);
    assert.match(id, /^[\x21-\x7e]+$/);
    assert.equal(ownerOfSessionId(id), owner);
  }
  assert.notEqual(ownedSessionId('gw-1'), ownedSessionId('gw-1'));
});

test('a session id of no owner (a plain UUID, a made-up tag) names none', () => {
  assert.equal(ownerOfSessionId('3f1c2a9e-1b2c-4d5e-8f90-123456789abc'), undefined);
  assert.equal(ownerOfSessionId('.abc'), undefined);
  assert.equal(ownerOfSessionId('not base64!.abc'), undefined);
  // A tag that is not the canonical encoding of its text is not an owner.
  assert.equal(ownerOfSessionId('Z3ctMR.abc'), undefined);
});

test('a signature verifies for the same request, time and secret, and names the sender', () => {
  const now = 1_800_000_000_000;
  const header = signForward(SECRET, 'gw-2', now, PARTS);
  assert.deepEqual(verifyForward(SECRET, header, now + 1000, PARTS), { ok: true, from: 'gw-2' });
});

test('a signature fails for another secret, body, target, method, client address, or an old or future time', () => {
  const now = 1_800_000_000_000;
  const header = signForward(SECRET, 'gw-2', now, PARTS);
  const refused = (secret: string, parts: typeof PARTS, at = now) => verifyForward(secret, header, at, parts).ok;
  assert.equal(refused('another-cluster-secret-of-32-characters!!', PARTS), false);
  assert.equal(refused(SECRET, { ...PARTS, body: new TextEncoder().encode('{}') }), false);
  assert.equal(refused(SECRET, { ...PARTS, target: '/messages?sessionId=abd' }), false);
  assert.equal(refused(SECRET, { ...PARTS, method: 'DELETE' }), false);
  assert.equal(refused(SECRET, { ...PARTS, clientAddress: '10.0.0.8' }), false);
  assert.equal(refused(SECRET, PARTS, now + MAX_CLOCK_SKEW_MS + 1), false);
  assert.equal(refused(SECRET, PARTS, now - MAX_CLOCK_SKEW_MS - 1), false);
});

test('a malformed header is refused with a reason, never thrown on', () => {
  for (const header of ['', 'v1', 'v2.Z3ctMQ.1.x', `v1.Z3ctMQ.abc.${'A'.repeat(43)}`, `v1.Z3ctMQ.1.${'A'.repeat(42)}`, 'v1.!.1.x']) {
    const checked = verifyForward(SECRET, header, 1, PARTS);
    assert.equal(checked.ok, false, header);
    if (!checked.ok) assert.ok(checked.reason.length > 0);
  }
});
