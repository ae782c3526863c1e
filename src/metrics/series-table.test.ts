/** @module Tests of the label-set cap: folding into `other`, the fold count, and bounded label values. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_LABEL_VALUE_LENGTH, normalizeLabelValue, SeriesTable } from './series-table.js';

function table(maxSeries: number) {
  let folded = 0;
  const series = new SeriesTable<'a' | 'b', { n: number }>(['a', 'b'], { maxSeries, onFolded: () => (folded += 1) }, () => ({ n: 0 }));
  return { series, folded: () => folded };
}

const dump = (series: SeriesTable<'a' | 'b', { n: number }>) => [...series.entries()].map(({ labels, state }) => [labels.map(([k, v]) => `${k}=${v}`).join(','), state.n]);

test('the same label set is the same series; label order is the metric\'s, not the caller\'s', () => {
  const { series } = table(10);
  series.get({ a: '1', b: '2' }).n += 1;
  series.get({ b: '2', a: '1' }).n += 1;
  assert.deepEqual(dump(series), [['a=1,b=2', 2]]);
});

test('past the cap, new label sets go to one series whose labels are all "other", and each such update is counted', () => {
  const { series, folded } = table(3);
  for (let i = 0; i < 3; i += 1) series.get({ a: `u${i}`, b: 'x' }).n += 1;
  for (let i = 3; i < 2000; i += 1) series.get({ a: `u${i}`, b: 'x' }).n += 1;
  series.get({ a: 'u1', b: 'x' }).n += 1; // a series that already exists keeps its own
  assert.equal(series.size, 4);
  assert.deepEqual(dump(series), [['a=u0,b=x', 1], ['a=u1,b=x', 2], ['a=u2,b=x', 1], ['a=other,b=other', 1997]]);
  assert.equal(folded(), 1997);
});

test('a missing label is the empty string; long values are cut without splitting a surrogate pair', () => {
  const { series } = table(10);
  series.get({ a: 'x' } as { a: string; b: string }).n += 1;
  assert.deepEqual(dump(series), [['a=x,b=', 1]]);
  assert.equal(normalizeLabelValue('y'.repeat(10_000)).length, MAX_LABEL_VALUE_LENGTH);
  const cut = normalizeLabelValue(`${'y'.repeat(MAX_LABEL_VALUE_LENGTH - 1)}😀tail`);
  assert.equal(cut, 'y'.repeat(MAX_LABEL_VALUE_LENGTH - 1));
  assert.equal(normalizeLabelValue(`${'y'.repeat(MAX_LABEL_VALUE_LENGTH - 2)}😀tail`), `${'y'.repeat(MAX_LABEL_VALUE_LENGTH - 2)}😀`);
});
