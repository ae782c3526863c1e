/** @module Bench answer schedule tests: same and other alternate, every holder and every other instance come up evenly. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scheduledAnswer } from './answer-schedule.js';

test('same and other alternate; the same answers on the holder, the other never does', () => {
  for (let index = 0; index < 60; index++) {
    const { kind, holder, answerer } = scheduledAnswer(index, 3);
    assert.equal(kind, index % 2 === 0 ? 'same' : 'other');
    if (kind === 'same') assert.equal(answerer, holder);
    else assert.notEqual(answerer, holder);
  }
});

test('over 12 samples on 3 instances each holder-answerer pair comes up evenly', () => {
  const counts = new Map<string, number>();
  for (let index = 0; index < 12; index++) {
    const { kind, holder, answerer } = scheduledAnswer(index, 3);
    const key = `${kind} ${holder}->${answerer}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  assert.deepEqual(Object.fromEntries([...counts].sort()), {
    'other 0->1': 1,
    'other 0->2': 1,
    'other 1->0': 1,
    'other 1->2': 1,
    'other 2->0': 1,
    'other 2->1': 1,
    'same 0->0': 2,
    'same 1->1': 2,
    'same 2->2': 2,
  });
});

test('one instance cannot answer on another', () => {
  assert.throws(() => scheduledAnswer(0, 1), /at least 2 instances/);
});
