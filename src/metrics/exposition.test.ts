/** @module Tests of the text format 0.0.4 details: escaping, number forms, the lines of a family. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { escapeHelp, escapeLabelValue, formatNumber, renderFamily } from './exposition.js';

test('a label value escapes backslash, double quote and line feed, and nothing else', () => {
  assert.equal(escapeLabelValue('a\\b"c\nd\te\'f'), 'a\\\\b\\"c\\nd\te\'f');
  assert.equal(escapeLabelValue('C:\\new'), 'C:\\\\new');
  assert.equal(escapeLabelValue('plain ünïcode ☃'), 'plain ünïcode ☃');
});

test('HELP text escapes backslash and line feed but keeps double quotes', () => {
  assert.equal(escapeHelp('say "hi"\\now\nthen'), 'say "hi"\\\\now\\nthen');
});

test('numbers: integers and decimals as they are, infinities and NaN by their exposition names', () => {
  assert.equal(formatNumber(42), '42');
  assert.equal(formatNumber(0.005), '0.005');
  assert.equal(formatNumber(-3.5), '-3.5');
  assert.equal(formatNumber(Infinity), '+Inf');
  assert.equal(formatNumber(-Infinity), '-Inf');
  assert.equal(formatNumber(NaN), 'NaN');
});

test('a family is HELP, TYPE, then one line per sample; no braces without labels', () => {
  const text = renderFamily('x_total', 'What "x" is.\nSecond line.', 'counter', [
    { suffix: '', labels: [], value: 1 },
    { suffix: '', labels: [['a', 'q"\\\n'], ['b', '']], value: 2.5 },
  ]);
  assert.equal(
    text,
    '# HELP x_total What "x" is.\\nSecond line.\n' +
      '# TYPE x_total counter\n' +
      'x_total 1\n' +
      'x_total{a="q\\"\\\\\\n",b=""} 2.5\n',
  );
});
