/** @module Tests of the histogram: buckets are cumulative, end at +Inf, and _count equals the +Inf bucket. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Histogram } from './histogram.js';

const limits = { maxSeries: 10, onFolded: () => undefined };

test('each series has cumulative buckets, +Inf, _sum and _count; NaN is ignored', () => {
  const histogram = new Histogram({ name: 'h', help: 'H.', labelNames: ['k'], buckets: [1, 2, 5] }, limits);
  for (const value of [0.5, 1, 1.5, 3, 3, 10, NaN]) histogram.observe({ k: 'a' }, value);
  histogram.observe({ k: 'b' }, Infinity);
  const rows = histogram.samples().map((s) => `${s.suffix}{${s.labels.map(([k, v]) => `${k}=${v}`).join(',')}} ${s.value}`);
  assert.deepEqual(rows, [
    '_bucket{k=a,le=1} 2',
    '_bucket{k=a,le=2} 3',
    '_bucket{k=a,le=5} 5',
    '_bucket{k=a,le=+Inf} 6',
    '_sum{k=a} 19',
    '_count{k=a} 6',
    '_bucket{k=b,le=1} 0',
    '_bucket{k=b,le=2} 0',
    '_bucket{k=b,le=5} 0',
    '_bucket{k=b,le=+Inf} 1',
    '_sum{k=b} Infinity',
    '_count{k=b} 1',
  ]);
});

test('buckets must be given, finite and strictly increasing', () => {
  const make = (buckets: number[]) => new Histogram({ name: 'h', help: 'H.', buckets }, limits);
  assert.throws(() => make([]), /no buckets/);
  assert.throws(() => make([1, Infinity]), /not finite/);
  assert.throws(() => make([1, NaN]), /not finite/);
  assert.throws(() => make([1, 1]), /strictly increasing/);
  assert.throws(() => make([2, 1]), /strictly increasing/);
  assert.doesNotThrow(() => make([-1, 0, 0.5]));
});
