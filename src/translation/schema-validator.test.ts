/** @module Tests of the JSON Schema validator port's helpers: JSON Pointer segments and the shared valid result. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { pointerSegments, VALID } from './schema-validator.js';

test('pointerSegments splits a JSON Pointer and unescapes ~1 and ~0 (in that order)', () => {
  const cases: [string, string[]][] = [
    ['', []],
    ['/', ['']],
    ['/confirm', ['confirm']],
    ['/tags/0', ['tags', '0']],
    ['/a~1b', ['a/b']],
    ['/m~0n', ['m~n']],
    ['/~01', ['~1']],
    ['/__proto__/x', ['__proto__', 'x']],
  ];
  for (const [pointer, segments] of cases) assert.deepEqual(pointerSegments(pointer), segments, pointer);
});

test('VALID is one frozen {ok: true}', () => {
  assert.deepEqual(VALID, { ok: true });
  assert.ok(Object.isFrozen(VALID));
});
