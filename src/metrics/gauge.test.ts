/** @module Tests of the gauge: set, up and down per label set. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Gauge } from './gauge.js';

test('a gauge is set, raised and lowered per label set, and may go below zero', () => {
  const gauge = new Gauge({ name: 'g', help: 'G.', labelNames: ['k'] }, { maxSeries: 10, onFolded: () => undefined });
  gauge.set({ k: 'a' }, 5);
  gauge.inc({ k: 'a' });
  gauge.dec({ k: 'a' }, 2);
  gauge.dec({ k: 'b' });
  assert.deepEqual(gauge.samples(), [
    { suffix: '', labels: [['k', 'a']], value: 4 },
    { suffix: '', labels: [['k', 'b']], value: -1 },
  ]);
});
