/** @module Tests of metric and label name validation. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { checkLabelNames, checkMetricName } from './metric-names.js';

test('metric names: letters, digits, underscore and colon, not starting with a digit', () => {
  for (const name of ['a', 'switchboard_questions_total', '_x', 'ns:sub_name', 'A9']) assert.doesNotThrow(() => checkMetricName(name), name);
  for (const name of ['', '9lives', 'has-dash', 'has space', 'dot.ted', 'ünï', 'x{a="b"}']) assert.throws(() => checkMetricName(name), /invalid metric name/, name);
});

test('label names: no colon, no leading digit, not reserved, not repeated, not a reserved name of the type', () => {
  assert.doesNotThrow(() => checkLabelNames('m', ['upstream', 'method', '_x', 'a1']));
  assert.throws(() => checkLabelNames('m', ['a:b']), /invalid label name "a:b"/);
  assert.throws(() => checkLabelNames('m', ['1a']), /invalid label name/);
  assert.throws(() => checkLabelNames('m', ['']), /invalid label name/);
  assert.throws(() => checkLabelNames('m', ['__name__']), /reserved/);
  assert.throws(() => checkLabelNames('m', ['a', 'a']), /repeated/);
  assert.throws(() => checkLabelNames('m', ['le'], ['le']), /reserved for this metric type/);
  assert.doesNotThrow(() => checkLabelNames('m', ['le']));
});
