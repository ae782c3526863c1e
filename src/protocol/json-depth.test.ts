/** @module Tests of the JSON nesting limit. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { exceedsJsonDepth, parseJsonWithin } from './json-depth.js';

const nested = (levels: number, open = '[', close = ']'): string => open.repeat(levels) + close.repeat(levels);

test('depth counts arrays and objects alike; the limit itself is accepted', () => {
  assert.equal(exceedsJsonDepth('1', 1), false);
  assert.equal(exceedsJsonDepth(nested(3), 3), false);
  assert.equal(exceedsJsonDepth(nested(4), 3), true);
  assert.equal(exceedsJsonDepth('{"a":{"b":[{}]}}', 4), false);
  assert.equal(exceedsJsonDepth('{"a":{"b":[{}]}}', 3), true);
  assert.equal(exceedsJsonDepth('[[],[],[],[]]', 2), false);
});

test('brackets inside strings, escaped quotes included, do not count', () => {
  assert.equal(exceedsJsonDepth('{"a":"[[[[[[{{{{"}', 1), false);
  assert.equal(exceedsJsonDepth('{"a":"\\"[[[[[[","b":"\\\\"}', 1), false);
  assert.equal(exceedsJsonDepth('{"a\\"[[":[[]]}', 3), false);
  assert.equal(exceedsJsonDepth('{"a\\"[[":[[]]}', 2), true);
});

test('parseJsonWithin refuses deep text before parsing, and tells syntax errors apart', () => {
  const deep = `{"clientInfo":${'{"x":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
  assert.deepEqual(parseJsonWithin(deep, 64), { ok: false, problem: 'too-deep', maxDepth: 64 });
  assert.deepEqual(parseJsonWithin('{"a":', 64), { ok: false, problem: 'syntax' });
  assert.deepEqual(parseJsonWithin(']]]]', 64), { ok: false, problem: 'syntax' });
  assert.deepEqual(parseJsonWithin('{"a":[1,{"b":2}]}', 3), { ok: true, value: { a: [1, { b: 2 }] } });
});

test('a scan of a million levels does not overflow the stack', () => {
  assert.equal(exceedsJsonDepth(nested(1_000_000), 64), true);
  assert.equal(exceedsJsonDepth(nested(1_000_000), 2_000_000), false);
});
