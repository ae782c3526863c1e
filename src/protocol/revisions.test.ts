/** @module Tests of the revision lists, eras and legacy negotiation. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  eraOf,
  isLegacyRevision,
  isModernRevision,
  isSupportedRevision,
  LATEST_LEGACY_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISION,
  negotiateRevision,
  SUPPORTED_REVISIONS,
} from './revisions.js';

test('the supported list is the modern revisions then the legacy ones, newest first, no duplicates', () => {
  assert.deepEqual([...SUPPORTED_REVISIONS], ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
  assert.deepEqual([...SUPPORTED_REVISIONS].sort().reverse(), [...SUPPORTED_REVISIONS]);
  assert.equal(MODERN_REVISION, '2026-07-28');
});

test('each value has the era its date gives it, and non-revisions have none', () => {
  const cases: [unknown, string | undefined][] = [
    ['2024-11-05', 'legacy'],
    ['2025-11-25', 'legacy'],
    ['2024-10-07', 'legacy'],
    ['2026-07-28', 'modern'],
    ['2027-01-01', 'modern'],
    ['2026-07-27', 'legacy'],
    ['DRAFT-2026-v1', undefined],
    ['', undefined],
    ['2026-7-28', undefined],
    [20260728, undefined],
    [undefined, undefined],
  ];
  for (const [value, era] of cases) assert.equal(eraOf(value), era, String(value));
});

test('membership checks know exactly their lists', () => {
  for (const revision of LEGACY_REVISIONS) {
    assert.ok(isLegacyRevision(revision) && !isModernRevision(revision) && isSupportedRevision(revision), revision);
  }
  assert.ok(isModernRevision('2026-07-28') && !isLegacyRevision('2026-07-28') && isSupportedRevision('2026-07-28'));
  for (const other of ['2027-01-01', '2024-10-07', 'draft', 1]) assert.ok(!isSupportedRevision(other), String(other));
});

test('legacy negotiation is unchanged: a modern or unknown request gets the latest legacy revision', () => {
  assert.equal(negotiateRevision('2025-06-18'), '2025-06-18');
  assert.equal(negotiateRevision('2026-07-28'), LATEST_LEGACY_REVISION);
  assert.equal(negotiateRevision(undefined), LATEST_LEGACY_REVISION);
});
