/** @module Tests of canonical JSON: key order, nesting, the forms JSON.stringify fixes, and what is refused. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { canonicalJson } from './canonical-json.js';

test('values serialise with sorted keys and no whitespace', () => {
  const cases: [unknown, string][] = [
    [null, 'null'],
    [true, 'true'],
    [0, '0'],
    [-0, '0'],
    [1e21, '1e+21'],
    [0.1, '0.1'],
    ['a"\u2028\ud800', '"a\\"\u2028\\ud800"'],
    [[], '[]'],
    [{}, '{}'],
    [{ b: 1, a: [{ d: 2, c: 3 }], '': null }, '{"":null,"a":[{"c":3,"d":2}],"b":1}'],
    [{ B: 1, a: 2, _: 3, '10': 4, '9': 5 }, '{"10":4,"9":5,"B":1,"_":3,"a":2}'],
    [{ keep: 1, drop: undefined }, '{"keep":1}'],
  ];
  for (const [value, text] of cases) assert.equal(canonicalJson(value), text, text);
});

test('the same value in any key order, or parsed back, gives the same text', () => {
  const a = JSON.parse('{"name":"restart","arguments":{"service":"payments-api","force":false,"tags":["x","y"]}}') as unknown;
  const b = JSON.parse('{ "arguments" : { "tags":["x","y"], "force":false, "service":"payments-api" }, "name":"restart" }') as unknown;
  assert.equal(canonicalJson(a), canonicalJson(b));
  assert.equal(canonicalJson(JSON.parse(canonicalJson(a))), canonicalJson(a));
  assert.notEqual(canonicalJson({ tags: ['x', 'y'] }), canonicalJson({ tags: ['y', 'x'] }), 'array order matters');
});

test('a "__proto__" key is data like any other', () => {
  const parsed = JSON.parse('{"__proto__":{"x":1},"a":2}') as unknown;
  assert.equal(canonicalJson(parsed), '{"__proto__":{"x":1},"a":2}');
});

test('what is not JSON is refused with a TypeError', () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  for (const bad of [undefined, Number.NaN, Infinity, 1n, () => 1, Symbol('s'), [undefined], cycle]) {
    assert.throws(() => canonicalJson(bad), TypeError);
  }
  const shared = { x: 1 };
  assert.equal(canonicalJson({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}', 'a shared child is not a cycle');
});
