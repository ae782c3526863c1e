/** @module Tests of the label-set cap: folding into `other`, the fold count, label order and bounded label values. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LabelCap, MAX_LABEL_VALUE_LENGTH, normalizeLabelValue } from './capped-labels.js';

function cap(maxSeries: number) {
  let folded = 0;
  return { cap: new LabelCap<'a' | 'b'>(['a', 'b'], maxSeries, () => (folded += 1)), folded: () => folded };
}

test('labels come back in the metric\'s label order, whatever the caller\'s order', () => {
  const { cap: labels } = cap(10);
  assert.deepEqual(Object.entries(labels.labels({ b: '2', a: '1' })), [['a', '1'], ['b', '2']]);
});

test('past the cap, new label sets become all "other", known ones keep theirs, and each fold is counted', () => {
  const { cap: labels, folded } = cap(3);
  for (let i = 0; i < 3; i += 1) assert.deepEqual(labels.labels({ a: `u${i}`, b: 'x' }), { a: `u${i}`, b: 'x' });
  for (let i = 3; i < 2000; i += 1) assert.deepEqual(labels.labels({ a: `u${i}`, b: 'x' }), { a: 'other', b: 'other' });
  assert.deepEqual(labels.labels({ b: 'x', a: 'u1' }), { a: 'u1', b: 'x' });
  assert.equal(folded(), 1997);
});

test('a missing label is the empty string; long values are cut without splitting a surrogate pair', () => {
  const { cap: labels } = cap(10);
  assert.deepEqual(labels.labels({ a: 'x' } as { a: string; b: string }), { a: 'x', b: '' });
  assert.equal(labels.labels({ a: 'y'.repeat(10_000), b: '' }).a.length, MAX_LABEL_VALUE_LENGTH);
  assert.equal(normalizeLabelValue(`${'y'.repeat(MAX_LABEL_VALUE_LENGTH - 1)}😀tail`), 'y'.repeat(MAX_LABEL_VALUE_LENGTH - 1));
  assert.equal(normalizeLabelValue(`${'y'.repeat(MAX_LABEL_VALUE_LENGTH - 2)}😀tail`), `${'y'.repeat(MAX_LABEL_VALUE_LENGTH - 2)}😀`);
  assert.equal(normalizeLabelValue(3), '3');
});

test('two label sets that differ only in where a value ends are two series', () => {
  const { cap: labels, folded } = cap(2);
  labels.labels({ a: 'x,y', b: '' });
  labels.labels({ a: 'x', b: 'y' });
  assert.equal(folded(), 0);
  assert.deepEqual(labels.labels({ a: 'new', b: '' }), { a: 'other', b: 'other' });
});
