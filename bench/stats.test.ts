/** @module Bench statistics tests: nearest-rank percentiles, p50/p95 spreads, guarded ratios. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { median, percentile, ratioOf, spread } from './stats.js';

test('percentiles are nearest-rank over an unsorted list', () => {
  const values = [5, 1, 4, 2, 3];
  assert.equal(median(values), 3);
  assert.equal(percentile(values, 0), 1);
  assert.equal(percentile(values, 95), 5);
  assert.equal(percentile(values, 100), 5);
  assert.ok(Number.isNaN(median([])));
});

test('a spread gives the size, the median and the 95th percentile', () => {
  const values = Array.from({ length: 100 }, (_, index) => 100 - index);
  assert.deepEqual(spread(values), { samples: 100, p50: 50, p95: 95 });
  assert.equal(spread([]).samples, 0);
});

test('a ratio needs two finite numbers and a whole above zero', () => {
  assert.equal(ratioOf(3, 4), 0.75);
  assert.equal(ratioOf(3, 0), undefined);
  assert.equal(ratioOf(undefined, 4), undefined);
  assert.equal(ratioOf(Number.NaN, 4), undefined);
  assert.equal(ratioOf(3, Number.POSITIVE_INFINITY), undefined);
});
