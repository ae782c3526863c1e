/** @module Tests of duration parsing. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_DURATION_MS, parseDuration } from './duration.js';

describe('parseDuration', () => {
  const good: [number | string, number][] = [
    [0, 0],
    [1500, 1500],
    [MAX_DURATION_MS, MAX_DURATION_MS],
    ['0ms', 0],
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1m30s250ms', 90_250],
    ['1.5s', 1500],
    ['0.25m', 15_000],
    ['0.0004s', 0],
    ['0.0006s', 1],
  ];
  for (const [input, ms] of good) {
    test(`${JSON.stringify(input)} -> ${ms}ms`, () => assert.equal(parseDuration(input), ms));
  }

  const bad: [number | string, RegExp][] = [
    [-1, /^must be a whole number of milliseconds, 0 or more \(got -1\)$/],
    [1.5, /whole number/],
    [Number.NaN, /whole number/],
    ['', /^must be a duration like 500ms, 30s, 5m or 1h \(got ""\)$/],
    ['5', /duration like/],
    ['5 m', /duration like/],
    ['5min', /duration like/],
    ['5M', /duration like/],
    ['1d', /duration like/],
    ['-5s', /duration like/],
    ['.5s', /duration like/],
    ['s', /duration like/],
    ['597h', /^must be at most 2147483647ms, about 24.8 days \(got "597h"\)$/],
    [MAX_DURATION_MS + 1, /at most 2147483647ms/],
  ];
  for (const [input, message] of bad) {
    test(`${JSON.stringify(input)} is rejected`, () => assert.throws(() => parseDuration(input), { message }));
  }
});
