/** @module Tests of sealing and opening handles: round trips, every tamper, expiry, every binding, key rotation, and fuzzing. */

import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { test } from 'node:test';

import type { HandleKey, HandleKeyRing } from './handle-keys.js';
import { generateHandleKeyText, handleKeyFromText, handleKeyRing } from './handle-keys.js';
import type { HandleClaims, HandleExpectation } from './request-state.js';
import { MAX_HANDLE_LENGTH, MAX_WRAPPED_STATE_LENGTH, handleOwnerOf, openHandle, sealHandle } from './request-state.js';

function newKey(): HandleKey {
  const read = handleKeyFromText(generateHandleKeyText());
  assert.ok(read.ok);
  return read.key;
}

const KEY = newKey();
const RING: HandleKeyRing = handleKeyRing([KEY]);
const NOW = 1_800_000_000_000;
const PARAMS = { name: 'desk_restart_service', arguments: { service: 'payments-api' } };
const PARKED: HandleClaims = { kind: 'parked', upstream: 'desk', principal: 'alice', method: 'tools/call', params: PARAMS, ttlMs: 60_000 };
const EXPECTED: HandleExpectation = { principal: 'alice', upstream: 'desk', method: 'tools/call', params: PARAMS };

/** A handle whose payload JSON is chosen freely and correctly MAC'd: to reach the checks behind the MAC. */
function forge(payloadJson: string, key: HandleKey = KEY, prefix = 'sb1'): string {
  const signed = `${prefix}.${Buffer.from(payloadJson, 'utf8').toString('base64url')}`;
  return `${signed}.${createHmac('sha256', key.secret).update(signed).digest('base64url')}`;
}

function payloadJsonOf(text: string): string {
  return Buffer.from(text.split('.')[1] ?? '', 'base64url').toString('utf8');
}

test('a sealed handle opens for its own retry, parked and wrapped, and carries the upstream state exactly', () => {
  const parked = sealHandle(PARKED, RING, NOW);
  assert.match(parked.text, /^sb1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  const opened = openHandle(parked.text, RING, EXPECTED, NOW + 1);
  assert.deepEqual(opened, { ok: true, payload: parked.payload, keyId: KEY.id });
  assert.equal(parked.payload.expiresAt, NOW + 60_000);
  assert.ok(!payloadJsonOf(parked.text).includes('alice'), 'the principal is not readable in the handle');

  const states = ['opaque', '', 'v1.eyJzdGVwIjoxfQ.hmac', '\u0000\u001f"\\\u2028', '\ud800 lone surrogate', '😀 ünïcödé', 'x'.repeat(MAX_WRAPPED_STATE_LENGTH)];
  for (const upstreamState of states) {
    const wrapped = sealHandle({ ...PARKED, kind: 'wrapped', upstreamState }, RING, NOW);
    const back = openHandle(wrapped.text, RING, EXPECTED, NOW);
    assert.ok(back.ok, JSON.stringify(upstreamState).slice(0, 30));
    assert.equal(back.ok && back.payload.upstreamState, upstreamState, 'byte for byte');
  }
  const worst = sealHandle({ ...PARKED, kind: 'wrapped', upstreamState: '\u0001'.repeat(MAX_WRAPPED_STATE_LENGTH), upstream: '\u0001'.repeat(256) }, RING, NOW);
  assert.ok(worst.text.length <= MAX_HANDLE_LENGTH, `the longest state fits (${worst.text.length})`);
  assert.ok(openHandle(worst.text, RING, { ...EXPECTED, upstream: '\u0001'.repeat(256) }, NOW).ok);
});

test('retry fields and _meta do not matter; each handle is unique', () => {
  const sealed = sealHandle(PARKED, RING, NOW);
  const retry = { ...PARAMS, inputResponses: { q: { action: 'accept' } }, requestState: sealed.text, _meta: { progressToken: 3 } };
  assert.ok(openHandle(sealed.text, RING, { ...EXPECTED, params: retry }, NOW).ok);
  const ids = new Set(Array.from({ length: 200 }, () => sealHandle(PARKED, RING, NOW).payload.id));
  assert.equal(ids.size, 200);
});

test('a handle past its expiry is refused, from the exact millisecond', () => {
  const sealed = sealHandle(PARKED, RING, NOW);
  assert.ok(openHandle(sealed.text, RING, EXPECTED, NOW + 59_999).ok);
  assert.deepEqual(openHandle(sealed.text, RING, EXPECTED, NOW + 60_000), { ok: false, reason: 'expired' });
  assert.deepEqual(openHandle(sealed.text, RING, EXPECTED, NOW + 10 ** 9), { ok: false, reason: 'expired' });
});

test('each binding is checked: another principal, upstream, method or params is refused', () => {
  const sealed = sealHandle(PARKED, RING, NOW);
  const cases: [string, HandleExpectation, string][] = [
    ['another principal', { ...EXPECTED, principal: 'mallory' }, 'wrong-principal'],
    ['the principal in another case', { ...EXPECTED, principal: 'Alice' }, 'wrong-principal'],
    ['another upstream', { ...EXPECTED, upstream: 'other' }, 'wrong-upstream'],
    ['another method', { ...EXPECTED, method: 'prompts/get' }, 'wrong-method'],
    ['other arguments', { ...EXPECTED, params: { ...PARAMS, arguments: { service: 'billing' } } }, 'wrong-params'],
    ['another tool', { ...EXPECTED, params: { ...PARAMS, name: 'desk_stop_service' } }, 'wrong-params'],
    ['no params', { ...EXPECTED, params: undefined }, 'wrong-params'],
    ['foreign principal on an expired handle: expiry is checked first', { ...EXPECTED, principal: 'mallory' }, 'expired'],
  ];
  for (const [name, expected, reason] of cases) {
    const now = name.includes('expired') ? NOW + 60_000 : NOW;
    assert.deepEqual(openHandle(sealed.text, RING, expected, now), { ok: false, reason }, name);
  }
});

test('every tamper is refused: a flipped bit in payload or MAC, swapped parts, truncation, another key', () => {
  const a = sealHandle(PARKED, RING, NOW).text;
  const b = sealHandle({ ...PARKED, principal: 'mallory' }, RING, NOW).text;
  const [prefix, payloadA, macA] = a.split('.') as [string, string, string];
  const [, payloadB, macB] = b.split('.') as [string, string, string];

  const payloadBytes = Buffer.from(payloadA, 'base64url');
  for (let i = 0; i < payloadBytes.length; i++) {
    for (const bit of [0x01, 0x80]) {
      const flipped = Buffer.from(payloadBytes);
      flipped[i] = (flipped[i] ?? 0) ^ bit;
      assert.deepEqual(openHandle(`${prefix}.${flipped.toString('base64url')}.${macA}`, RING, EXPECTED, NOW), { ok: false, reason: 'bad-mac' }, `payload byte ${i}`);
    }
  }
  const macBytes = Buffer.from(macA, 'base64url');
  for (let i = 0; i < macBytes.length; i++) {
    const flipped = Buffer.from(macBytes);
    flipped[i] = (flipped[i] ?? 0) ^ 0x01;
    assert.deepEqual(openHandle(`${prefix}.${payloadA}.${flipped.toString('base64url')}`, RING, EXPECTED, NOW), { ok: false, reason: 'bad-mac' }, `mac byte ${i}`);
  }
  assert.deepEqual(openHandle(`${prefix}.${payloadB}.${macA}`, RING, EXPECTED, NOW), { ok: false, reason: 'bad-mac' }, 'payload of b, mac of a');
  assert.deepEqual(openHandle(`${prefix}.${payloadA}.${macB}`, RING, EXPECTED, NOW), { ok: false, reason: 'bad-mac' }, 'payload of a, mac of b');
  for (let length = 0; length < a.length; length++) {
    const cut = openHandle(a.slice(0, length), RING, EXPECTED, NOW);
    assert.ok(!cut.ok && (cut.reason === 'malformed' || cut.reason === 'bad-mac'), `truncated to ${length}: ${JSON.stringify(cut)}`);
  }
  assert.deepEqual(openHandle(a, handleKeyRing([newKey()]), EXPECTED, NOW), { ok: false, reason: 'bad-mac' }, 'another gateway’s key');
  assert.deepEqual(openHandle(`${a}.`, RING, EXPECTED, NOW), { ok: false, reason: 'malformed' });
  assert.deepEqual(openHandle(`${prefix}.${payloadA}=.${macA}`, RING, EXPECTED, NOW), { ok: false, reason: 'malformed' }, 'a re-spelled payload');
  assert.deepEqual(openHandle(a.replace(/^sb1/, 'SB1'), RING, EXPECTED, NOW), { ok: false, reason: 'malformed' });
});

test('versions: another sbN prefix and another payload version are unknown, not malformed', () => {
  const sealed = sealHandle(PARKED, RING, NOW).text;
  assert.deepEqual(openHandle(sealed.replace(/^sb1/, 'sb2'), RING, EXPECTED, NOW), { ok: false, reason: 'unknown-version' });
  const json = JSON.parse(payloadJsonOf(sealed)) as Record<string, unknown>;
  assert.deepEqual(openHandle(forge(JSON.stringify({ ...json, v: 2 })), RING, EXPECTED, NOW), { ok: false, reason: 'unknown-version' });
  assert.ok(openHandle(forge(JSON.stringify(json)), RING, EXPECTED, NOW).ok, 'the forge helper makes valid handles');
});

test('a payload that passes the MAC but is off in any way is malformed', () => {
  const json = JSON.parse(payloadJsonOf(sealHandle(PARKED, RING, NOW).text)) as Record<string, unknown>;
  const text = (value: unknown): string => JSON.stringify(value);
  const variants: [string, string][] = [
    ['not JSON', '{'],
    ['an array', text([json])],
    ['an extra key', text({ ...json, extra: 1 })],
    ['a missing key', text({ ...json, m: undefined })],
    ['an unknown kind', text({ ...json, k: 'other' })],
    ['state on a parked handle', text({ ...json, s: 'x' })],
    ['a wrapped handle without state', text({ ...json, k: 'wrapped' })],
    ['a short id', text({ ...json, id: 'abc' })],
    ['a bad digest', text({ ...json, d: 'x'.repeat(42) })],
    ['an empty upstream', text({ ...json, u: '' })],
    ['a fractional time', text({ ...json, exp: (json.exp as number) + 0.5 })],
    ['ends before it starts', text({ ...json, exp: json.iat })],
    ['a version string', text({ ...json, v: '1' })],
    ['a __proto__ key', `{"__proto__":1,${text(json).slice(1)}`],
  ];
  for (const [name, payloadJson] of variants) {
    assert.deepEqual(openHandle(forge(payloadJson), RING, EXPECTED, NOW), { ok: false, reason: 'malformed' }, name);
  }
  const notUtf8 = `sb1.${Buffer.from([0xff, 0xfe]).toString('base64url')}`;
  assert.deepEqual(openHandle(`${notUtf8}.${createHmac('sha256', KEY.secret).update(notUtf8).digest('base64url')}`, RING, EXPECTED, NOW), { ok: false, reason: 'malformed' });
});

test('rotation: the first key signs, every key verifies, a dropped key no longer does', () => {
  const [oldKey, newKey_] = [newKey(), newKey()];
  const before = sealHandle(PARKED, handleKeyRing([oldKey]), NOW);
  const rotated = handleKeyRing([newKey_, oldKey]);
  const after = sealHandle(PARKED, rotated, NOW);
  assert.deepEqual(openHandle(before.text, rotated, EXPECTED, NOW), { ok: true, payload: before.payload, keyId: oldKey.id });
  assert.deepEqual(openHandle(after.text, rotated, EXPECTED, NOW), { ok: true, payload: after.payload, keyId: newKey_.id });
  assert.deepEqual(openHandle(before.text, handleKeyRing([newKey_]), EXPECTED, NOW), { ok: false, reason: 'bad-mac' });
  assert.deepEqual(openHandle(after.text, handleKeyRing([oldKey]), EXPECTED, NOW), { ok: false, reason: 'bad-mac' }, 'the old key alone cannot open a new handle');
});

test('sealing refuses claims the gateway should never make', () => {
  const bad: [string, HandleClaims, number][] = [
    ['a wrapped handle without state', { ...PARKED, kind: 'wrapped' }, NOW],
    ['a parked handle with state', { ...PARKED, upstreamState: 's' }, NOW],
    ['no lifetime', { ...PARKED, ttlMs: 0 }, NOW],
    ['more than a day', { ...PARKED, ttlMs: 24 * 3600_000 + 1 }, NOW],
    ['a fractional lifetime', { ...PARKED, ttlMs: 1.5 }, NOW],
    ['a state too long', { ...PARKED, kind: 'wrapped', upstreamState: 'x'.repeat(MAX_WRAPPED_STATE_LENGTH + 1) }, NOW],
    ['an empty upstream', { ...PARKED, upstream: '' }, NOW],
    ['an empty method', { ...PARKED, method: '' }, NOW],
    ['params that are not JSON', { ...PARKED, params: { n: Number.NaN } }, NOW],
    ['a negative clock', PARKED, -1],
  ];
  for (const [name, claims, now] of bad) assert.throws(() => sealHandle(claims, RING, now), /sealHandle|canonicalJson/, name);
});

test('fuzz: thousands of random and mutated strings never throw and never open', () => {
  const sealed = sealHandle(PARKED, RING, NOW).text;
  const alphabet = 'sb1.ABCxyz019_-=+/ \u00e9\ud800😀';
  const inputs: unknown[] = [undefined, null, 42, {}, [], sealed.split('.'), 'x'.repeat(MAX_HANDLE_LENGTH + 1)];
  for (let i = 0; i < 3000; i++) {
    const random = randomBytes(1 + (i % 64));
    inputs.push(Array.from(random, (byte) => alphabet[byte % alphabet.length]).join(''));
    inputs.push(`sb1.${random.toString('base64url')}.${randomBytes(32).toString('base64url')}`);
    const chars = [...sealed];
    const at = (random[0] ?? 0) % chars.length;
    chars[at] = alphabet[(random[1] ?? 0) % alphabet.length] ?? '';
    const mutated = chars.join('');
    if (mutated !== sealed) inputs.push(mutated);
  }
  for (const input of inputs) {
    const opened = openHandle(input, RING, EXPECTED, NOW);
    assert.equal(opened.ok, false, typeof input === 'string' ? input.slice(0, 60) : String(input));
  }
  assert.ok(inputs.length > 6000);
});

test('a parked handle of a gateway of several instances names its owner: it opens like any, and the owner reads back', () => {
  const sealed = sealHandle({ ...PARKED, owner: 'gw-2' }, RING, NOW);
  const opened = openHandle(sealed.text, RING, EXPECTED, NOW + 1);
  assert.equal(opened.ok, true);
  if (opened.ok) assert.equal(opened.payload.owner, 'gw-2');
  assert.equal(handleOwnerOf(sealed.text), 'gw-2');
  // Without an owner (one instance), nothing is named; nor in what is not a handle.
  assert.equal(handleOwnerOf(sealHandle(PARKED, RING, NOW).text), undefined);
  for (const text of [undefined, 42, '', 'sb1.x', 'sb2.e30.x', 'sb1.!!!.x']) assert.equal(handleOwnerOf(text), undefined);
});

test('only a parked handle names an owner: sealing refuses one on a wrapped handle, opening calls such a payload malformed', () => {
  assert.throws(() => sealHandle({ ...PARKED, kind: 'wrapped', upstreamState: 's', owner: 'gw-2' }, RING, NOW), RangeError);
  assert.throws(() => sealHandle({ ...PARKED, owner: '' }, RING, NOW), RangeError);
  const wire = { v: 1, k: 'wrapped', id: 'A'.repeat(22), u: 'desk', p: 'A'.repeat(43), m: 'tools/call', d: 'A'.repeat(43), iat: NOW, exp: NOW + 1000, s: 'x', o: 'gw-2' };
  const opened = openHandle(forge(JSON.stringify(wire)), RING, EXPECTED, NOW);
  assert.deepEqual(opened, { ok: false, reason: 'malformed' });
});
