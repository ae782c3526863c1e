/** @module Tests of the counter: it only goes up. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Counter } from './counter.js';

const limits = { maxSeries: 10, onFolded: () => undefined };

test('a counter adds per label set and refuses to go down or to add what is not a number', () => {
  const counter = new Counter({ name: 'c_total', help: 'C.', labelNames: ['k'] }, limits);
  counter.inc({ k: 'a' });
  counter.inc({ k: 'a' }, 0.5);
  counter.inc({ k: 'b' }, 0);
  assert.throws(() => counter.inc({ k: 'a' }, -1), RangeError);
  assert.throws(() => counter.inc({ k: 'a' }, NaN), RangeError);
  assert.throws(() => counter.inc({ k: 'a' }, Infinity), RangeError);
  assert.deepEqual(counter.samples(), [
    { suffix: '', labels: [['k', 'a']], value: 1.5 },
    { suffix: '', labels: [['k', 'b']], value: 0 },
  ]);
});
