/** @module Tests of list filter checking and its defaults. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, normalizeFilter } from './list-filter.js';

test('no filter: any state, 100 at most', () => {
  assert.deepEqual(normalizeFilter(), { limit: DEFAULT_LIST_LIMIT });
  assert.equal(DEFAULT_LIST_LIMIT, 100);
});

test('a limit above 1000 is lowered to 1000; 1000 and below are kept', () => {
  assert.equal(MAX_LIST_LIMIT, 1000);
  assert.equal(normalizeFilter({ limit: 1001 }).limit, 1000);
  assert.equal(normalizeFilter({ limit: 1000 }).limit, 1000);
  assert.equal(normalizeFilter({ limit: 1 }).limit, 1);
});

test('one state or several become one list without repeats; times become canonical', () => {
  assert.deepEqual(normalizeFilter({ state: 'pending' }).states, ['pending']);
  assert.deepEqual(normalizeFilter({ state: ['answered', 'declined', 'answered'] }).states, ['answered', 'declined']);
  assert.equal(normalizeFilter({ before: '2026-03-01T10:00:00+01:00' }).before, '2026-03-01T09:00:00.000Z');
});
