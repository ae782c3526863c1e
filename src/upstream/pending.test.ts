/** @module The pending-call table: a call leaves it once; its timeout stops while paused and starts afresh on resume or progress. */

import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import type { PendingCall } from './pending.js';
import { PendingCalls } from './pending.js';

function call(id: number, timeoutMs: number): PendingCall {
  return { id, method: 'tools/call', sentAt: 0, timeoutMs, resolve: () => undefined, reject: () => undefined, onProgress: undefined, onErrorResponse: undefined, onResult: undefined };
}

/** A table on mocked timers, and the ids of the calls it timed out, in order. */
function mockedTable(t: TestContext): { table: PendingCalls; timedOut: number[] } {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const timedOut: number[] = [];
  return { table: new PendingCalls((c) => timedOut.push(c.id)), timedOut };
}

test('a call whose timeout runs out leaves the table and goes to onTimeout once', (t) => {
  const { table, timedOut } = mockedTable(t);
  table.add(call(1, 100));
  table.add(call(2, 300));
  t.mock.timers.tick(99);
  assert.deepEqual(timedOut, []);
  t.mock.timers.tick(1);
  assert.deepEqual(timedOut, [1]);
  assert.equal(table.has(1), false);
  assert.equal(table.get(2)?.id, 2);
  assert.equal(table.take(1), undefined);
  t.mock.timers.tick(1000);
  assert.deepEqual(timedOut, [1, 2]);
});

test('a taken call, and a call without a timeout, never time out', (t) => {
  const { table, timedOut } = mockedTable(t);
  table.add(call(1, 100));
  table.add(call(2, 0));
  assert.equal(table.take(1)?.id, 1);
  t.mock.timers.tick(10_000);
  assert.deepEqual(timedOut, []);
  assert.deepEqual(table.takeAll().map((c) => c.id), [2]);
  assert.equal(table.has(2), false);
});

test('pauses nest: the clock stops at the first and starts afresh when the last is resumed', (t) => {
  const { table, timedOut } = mockedTable(t);
  table.add(call(1, 100));
  t.mock.timers.tick(90);
  table.pause(1);
  table.pause(1);
  table.restartTimer(1); // progress while paused does not restart the clock
  t.mock.timers.tick(500);
  table.resume(1);
  t.mock.timers.tick(500);
  assert.deepEqual(timedOut, []);
  table.resume(1);
  table.resume(1); // one resume too many is ignored
  t.mock.timers.tick(99);
  assert.deepEqual(timedOut, []);
  t.mock.timers.tick(1);
  assert.deepEqual(timedOut, [1]);
});

test('progress restarts the full timeout of a running call', (t) => {
  const { table, timedOut } = mockedTable(t);
  table.add(call(1, 100));
  t.mock.timers.tick(80);
  table.restartTimer(1);
  t.mock.timers.tick(80);
  assert.deepEqual(timedOut, []);
  t.mock.timers.tick(20);
  assert.deepEqual(timedOut, [1]);
});
