/** @module Tests of the payload JSON: it round-trips, and its short keys are pinned (handles already issued must stay readable). */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { HandlePayload } from './handle-payload.js';
import { decodePayload, encodePayload } from './handle-payload.js';

const DIGEST = 'A'.repeat(43);
const PARKED: HandlePayload = {
  version: 1,
  kind: 'parked',
  id: 'B'.repeat(22),
  upstream: 'desk',
  principal: DIGEST,
  method: 'tools/call',
  paramsDigest: DIGEST,
  issuedAt: 10,
  expiresAt: 20,
};

test('the wire form is pinned and round-trips, with the state only on wrapped handles', () => {
  assert.equal(encodePayload(PARKED), `{"v":1,"k":"parked","id":"${'B'.repeat(22)}","u":"desk","p":"${DIGEST}","m":"tools/call","d":"${DIGEST}","iat":10,"exp":20}`);
  assert.deepEqual(decodePayload(encodePayload(PARKED)), { ok: true, payload: PARKED });
  const wrapped: HandlePayload = { ...PARKED, kind: 'wrapped', upstreamState: '' };
  assert.match(encodePayload(wrapped), /"s":""}$/);
  assert.deepEqual(decodePayload(encodePayload(wrapped)), { ok: true, payload: wrapped });
});

test('versions other than 1 are unknown; a non-integer version is malformed', () => {
  const json = JSON.parse(encodePayload(PARKED)) as Record<string, unknown>;
  assert.deepEqual(decodePayload(JSON.stringify({ ...json, v: 2 })), { ok: false, reason: 'unknown-version' });
  assert.deepEqual(decodePayload(JSON.stringify({ ...json, v: 0 })), { ok: false, reason: 'unknown-version' });
  assert.deepEqual(decodePayload(JSON.stringify({ ...json, v: 1.5 })), { ok: false, reason: 'malformed' });
  assert.deepEqual(decodePayload(JSON.stringify({ ...json, v: undefined })), { ok: false, reason: 'malformed' });
  assert.deepEqual(decodePayload('null'), { ok: false, reason: 'malformed' });
});
