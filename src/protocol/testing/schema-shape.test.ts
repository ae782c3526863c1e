/** @module Tests of the structural schema check itself, so the cross-checks built on it cannot pass vacuously. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { schemaProblems } from './schema-shape.js';

const ROOT = {
  $defs: {
    Thing: {
      type: 'object',
      properties: { kind: { const: 'thing' }, size: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' } }, ref: { $ref: '#/$defs/Other' } },
      required: ['kind'],
    },
    Other: { anyOf: [{ type: 'string' }, { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }] },
    Open: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: {} },
    Shut: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    Map: { type: 'object', additionalProperties: { enum: ['x', 'y'] } },
    Both: { allOf: [{ $ref: '#/$defs/Open' }, { properties: { b: { type: 'boolean' } }, required: ['b'] }] },
  },
};
const def = (name: string): unknown => (ROOT.$defs as Record<string, unknown>)[name];

test('fitting values have no problems, and each kind of misfit is found', () => {
  const cases: [string, unknown, boolean, number][] = [
    ['Thing', { kind: 'thing', size: 3, tags: ['a'], ref: 'r' }, false, 0],
    ['Thing', { kind: 'thing', ref: { n: 1 } }, false, 0],
    ['Thing', { kind: 'other' }, false, 1],
    ['Thing', { size: 1 }, false, 1],
    ['Thing', { kind: 'thing', size: -1 }, false, 1],
    ['Thing', { kind: 'thing', size: 1.5 }, false, 1],
    ['Thing', { kind: 'thing', tags: ['a', 2] }, false, 1],
    ['Thing', { kind: 'thing', ref: { m: 1 } }, false, 1],
    ['Thing', { kind: 'thing', extra: 1 }, false, 0],
    ['Thing', { kind: 'thing', extra: 1 }, true, 1],
    ['Thing', [], false, 1],
    ['Open', { a: 'x', z: 1 }, true, 0],
    ['Shut', { a: 'x', z: 1 }, false, 1],
    ['Map', { p: 'x', q: 'z' }, true, 1],
    ['Both', { a: 'x', b: true }, false, 0],
    ['Both', { a: 1 }, false, 2],
  ];
  for (const [name, value, closed, count] of cases) {
    const problems = schemaProblems(ROOT, def(name), value, { closed });
    assert.equal(problems.length, count, `${name} ${JSON.stringify(value)} closed=${closed}: ${problems.join('; ')}`);
  }
  assert.deepEqual(schemaProblems(ROOT, { $ref: '#/$defs/Nope' }, 1), ['$: unresolved #/$defs/Nope']);
});
