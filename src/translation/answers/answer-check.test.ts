/** @module Tests of the answer check's filling of the upstream's defaults a downgraded host never saw into its accepted answer. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject } from '../../protocol/jsonrpc.js';
import { translateElicitation } from '../elicitation-downgrade.js';
import { fillHiddenDefaults, hiddenDefaults } from './answer-check.js';

/** What an upstream speaking 2025-11-25 asks: a default on every kind of property, one property without. */
const upstreamSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'Ada' },
    count: { type: 'integer', minimum: 0, default: 3 },
    queue: { type: 'string', oneOf: [{ const: 'ops', title: 'Operations' }, { const: 'dev', title: 'Development' }], default: 'dev' },
    colour: { type: 'string', enum: ['red', 'blue'], default: 'blue' },
    notify: { type: 'boolean', default: true },
    note: { type: 'string' },
  },
  required: ['note'],
};

/** What the 2025-06-18 host is really sent for it (the downgrade itself, not a hand-written copy). */
const sent = (() => {
  const translated = translateElicitation({ message: 'x', requestedSchema: upstreamSchema }, '2025-06-18');
  assert.equal(translated.kind, 'send');
  return (translated.kind === 'send' ? translated.params.requestedSchema : undefined) as JsonObject;
})();

test('the hidden defaults are those the downgrade removed: every one but the boolean the host saw', () => {
  assert.deepEqual(hiddenDefaults(upstreamSchema, sent), { name: 'Ada', count: 3, queue: 'dev', colour: 'blue' });
  assert.deepEqual(hiddenDefaults(upstreamSchema, upstreamSchema), {}, 'a host sent the schema as is saw every default');
});

const cases: [name: string, answer: JsonObject, expected: JsonObject][] = [
  [
    'omitted properties get the defaults, after the host values',
    { action: 'accept', content: { note: 'hi', count: 7 } },
    { action: 'accept', content: { note: 'hi', count: 7, name: 'Ada', queue: 'dev', colour: 'blue' } },
  ],
  [
    'nothing omitted: the answer is unchanged',
    { action: 'accept', content: { note: 'n', name: 'Bo', count: 0, queue: 'ops', colour: 'red' } },
    { action: 'accept', content: { note: 'n', name: 'Bo', count: 0, queue: 'ops', colour: 'red' } },
  ],
  ['the boolean default the host saw is not filled in', { action: 'accept', content: { note: 'n', name: 'a', count: 1, queue: 'ops', colour: 'red' } }, { action: 'accept', content: { note: 'n', name: 'a', count: 1, queue: 'ops', colour: 'red' } }],
  ['decline is never filled', { action: 'decline' }, { action: 'decline' }],
  ['cancel is never filled', { action: 'cancel', content: {} }, { action: 'cancel', content: {} }],
  [
    'accept without content gets a content of the defaults; other result keys keep their place',
    { _meta: { k: 1 }, action: 'accept' },
    { _meta: { k: 1 }, action: 'accept', content: { name: 'Ada', count: 3, queue: 'dev', colour: 'blue' } },
  ],
  ['a content that is not an object is left for the answer check', { action: 'accept', content: ['x'] }, { action: 'accept', content: ['x'] }],
];

test('fillHiddenDefaults fills exactly the omitted hidden defaults of an accept', () => {
  for (const [name, answer, expected] of cases) {
    const before = JSON.stringify(answer);
    const filled = fillHiddenDefaults(answer, upstreamSchema, sent);
    assert.equal(JSON.stringify(filled), JSON.stringify(expected), name);
    assert.equal(JSON.stringify(answer), before, `${name}: the host answer is not mutated`);
    if (JSON.stringify(expected) === before) assert.equal(filled, answer, `${name}: nothing to fill returns the same object`);
  }
});

test('a filled default is a copy, and an upstream default that breaks its own property is not filled', () => {
  const schema = {
    type: 'object',
    properties: {
      regions: { type: 'array', items: { type: 'string', enum: ['eu', 'us'] }, default: ['eu'] },
      level: { type: 'integer', maximum: 5, default: 9 },
      pick: { type: 'string', enum: ['a', 'b'], default: 'z' },
    },
  };
  const filled = fillHiddenDefaults({ action: 'accept', content: {} }, schema, { type: 'object', properties: {} });
  assert.deepEqual(filled, { action: 'accept', content: { regions: ['eu'] } });
  assert.notEqual((filled.content as JsonObject).regions, schema.properties.regions.default);
});

test('a property named __proto__ is filled as data', () => {
  const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","default":"p"}}}') as JsonObject;
  const filled = fillHiddenDefaults({ action: 'accept', content: {} }, schema, { type: 'object', properties: {} });
  assert.equal(JSON.stringify(filled), '{"action":"accept","content":{"__proto__":"p"}}');
  assert.equal(Object.getPrototypeOf(filled.content), Object.prototype);
});
