/** @module Bench question cost tests: counters per question, the instances' heartbeats taken out, untouched tables left out. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { CounterSnapshot } from './pg-counters.js';
import { questionCost } from './question-cost.js';

const rows = (inserted: number, updated = 0, deleted = 0) => ({ inserted, updated, deleted });

test('rows, transactions and notifications per question, without the heartbeats', () => {
  const before: CounterSnapshot = { nextXid: 1000, heartbeats: 7, tables: { instances: rows(3, 7), questions: rows(0), audit: rows(0), runs: rows(0) } };
  const atEnd: CounterSnapshot = { nextXid: 1000 + 2 * 50 + 4, heartbeats: 11, tables: before.tables };
  const flushed: CounterSnapshot = { nextXid: 1200, heartbeats: 14, tables: { instances: rows(3, 14), questions: rows(50, 50), audit: rows(150), runs: rows(0) } };
  assert.deepEqual(questionCost(before, atEnd, flushed, 100, 50), {
    questions: 50,
    tables: { questions: rows(1, 1), audit: rows(3) },
    notifications: 2,
    writeTransactions: 2,
  });
});

test('a batch without questions has no cost per question', () => {
  const empty: CounterSnapshot = { nextXid: 1, heartbeats: 0, tables: {} };
  assert.throws(() => questionCost(empty, empty, empty, 0, 0), /no question/);
});
