/** @module Tests of redeeming handles: parked ones once, wrapped ones freely, nothing recorded for a refused handle. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MemoryHandleLedger } from './handle-ledger.js';
import { generateHandleKeyText, handleKeyRingFromTexts } from './handle-keys.js';
import { redeemHandle } from './redeem-handle.js';
import type { HandleClaims } from './request-state.js';
import { sealHandle } from './request-state.js';

const ring = handleKeyRingFromTexts([generateHandleKeyText()]);
assert.ok(ring.ok);
const RING = ring.ring;
const NOW = 1_800_000_000_000;
const PARAMS = { uri: 'incident://INC-1/summary' };
const CLAIMS: HandleClaims = { kind: 'parked', upstream: 'desk', principal: 'alice', method: 'resources/read', params: PARAMS, ttlMs: 1000 };
const EXPECTED = { principal: 'alice', upstream: 'desk', method: 'resources/read', params: PARAMS };

test('a parked handle redeems once; the replay is refused', async () => {
  const ledger = new MemoryHandleLedger();
  const { text, payload } = sealHandle(CLAIMS, RING, NOW);
  const first = await redeemHandle(text, RING, EXPECTED, NOW + 1, ledger);
  assert.deepEqual(first, { ok: true, payload, keyId: RING.signing.id });
  assert.deepEqual(await redeemHandle(text, RING, EXPECTED, NOW + 2, ledger), { ok: false, reason: 'replayed' });
  assert.deepEqual(await redeemHandle(text, RING, EXPECTED, NOW + 1000, ledger), { ok: false, reason: 'expired' }, 'after expiry it is expired, ledger or not');
});

test('a refused handle records nothing: the rightful retry still works afterwards', async () => {
  const ledger = new MemoryHandleLedger();
  const { text } = sealHandle(CLAIMS, RING, NOW);
  assert.deepEqual(await redeemHandle(text, RING, { ...EXPECTED, principal: 'mallory' }, NOW, ledger), { ok: false, reason: 'wrong-principal' });
  assert.deepEqual(await redeemHandle(text, RING, { ...EXPECTED, params: { uri: 'incident://INC-2/summary' } }, NOW, ledger), { ok: false, reason: 'wrong-params' });
  assert.equal(ledger.size, 0);
  assert.equal((await redeemHandle(text, RING, EXPECTED, NOW, ledger)).ok, true);
});

test('wrapped handles are not single-use (the upstream owns its state); a full ledger refuses parked ones', async () => {
  const ledger = new MemoryHandleLedger({ capacity: 1 });
  const wrapped = sealHandle({ ...CLAIMS, kind: 'wrapped', upstreamState: 'up-state' }, RING, NOW).text;
  for (let i = 0; i < 3; i++) assert.equal((await redeemHandle(wrapped, RING, EXPECTED, NOW, ledger)).ok, true);
  assert.equal(ledger.size, 0);
  assert.equal((await redeemHandle(sealHandle(CLAIMS, RING, NOW).text, RING, EXPECTED, NOW, ledger)).ok, true);
  const second = sealHandle(CLAIMS, RING, NOW + 500).text;
  assert.deepEqual(await redeemHandle(second, RING, EXPECTED, NOW + 500, ledger), { ok: false, reason: 'ledger-full' });
  assert.equal((await redeemHandle(second, RING, EXPECTED, NOW + 1000, ledger)).ok, true, 'the same handle redeems once the first entry expired and made room');
});
