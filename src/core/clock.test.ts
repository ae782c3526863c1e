/** @module Tests of the clock port's manual clock and of per-instance id counters. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CountingIds, ManualClock, systemClock } from './clock.js';

test('a manual clock moves only when told, and gives the same instant as a Date', () => {
  const clock = new ManualClock('2026-03-01T09:00:00.000Z');
  const start = clock.now();
  assert.equal(clock.now(), start);
  assert.equal(clock.advance(250), start + 250);
  assert.equal(clock.now(), start + 250);
  assert.equal(clock.date().toISOString(), '2026-03-01T09:00:00.250Z');
  assert.equal(new ManualClock(42).now(), 42);
});

test('the system clock tells the time of day', () => {
  const before = Date.now();
  const now = systemClock.now();
  assert.ok(now >= before && now <= Date.now());
  assert.ok(Math.abs(systemClock.date().getTime() - now) < 1000);
});

test('ids count per series and per instance: two sources never share a count', () => {
  const ids = new CountingIds();
  assert.deepEqual([ids.next('sb-'), ids.next('sb-'), ids.next('m-'), ids.next('sb-')], [1, 2, 1, 3]);
  assert.equal(new CountingIds().next('sb-'), 1);
});
