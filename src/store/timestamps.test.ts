/** @module Tests of the stores' one timestamp form. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isCanonicalTimestamp, normalizeBound, stamp } from './timestamps.js';

test('only what toISOString writes is canonical', () => {
  assert.equal(isCanonicalTimestamp('2026-03-01T09:00:00.000Z'), true);
  assert.equal(isCanonicalTimestamp(new Date(0).toISOString()), true);
  for (const bad of ['2026-03-01T09:00:00Z', '2026-03-01T09:00:00.000+00:00', '2026-02-30T00:00:00.000Z', '2026-03-01', ' 2026-03-01T09:00:00.000Z', 1_700_000_000_000, null]) {
    assert.equal(isCanonicalTimestamp(bad), false, String(bad));
  }
});

test('the clock reading becomes a canonical timestamp; a broken clock is an error', () => {
  assert.equal(stamp(() => new Date('2026-03-01T10:00:00+01:00')), '2026-03-01T09:00:00.000Z');
  assert.throws(() => stamp(() => new Date(Number.NaN)), /invalid date/);
  assert.throws(() => stamp(() => new Date('+010000-01-01T00:00:00.000Z')), /outside the years/);
});

test('a before bound may be any ISO 8601 date or time, and comes out canonical', () => {
  assert.equal(normalizeBound('2026-03-01'), '2026-03-01T00:00:00.000Z');
  assert.equal(normalizeBound('2026-03-01T10:00+01:00'), '2026-03-01T09:00:00.000Z');
  assert.equal(normalizeBound('2026-03-01T09:00:00.123456Z'), '2026-03-01T09:00:00.123Z');
  for (const bad of ['yesterday', 'March 1, 2026', '2026-03-01T09:00:00', '', 5]) {
    assert.throws(() => normalizeBound(bad), { code: 'invalid-filter' }, String(bad));
  }
});
