/** @module Tests of the keyword-value schemas of primitive elicitation properties: each type's schema compiles, and the first broken rule is the one reported. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { keywordValueProblem } from './elicitation-keyword-values.js';

test('well-formed keywords of every type pass, annotations included', () => {
  const valid: [string, Record<string, unknown>][] = [
    ['string', { type: 'string', title: 'T', pattern: '^a', minLength: 0, maxLength: 3, format: 'anything', default: 'a', enum: ['a', 'b'], enumNames: ['A', 'B'] }],
    ['string', { type: 'string', oneOf: [{ const: 'a', title: 'A' }] }],
    ['number', { type: 'number', minimum: -1.5, maximum: 2, default: 0.5 }],
    ['integer', { type: 'integer', minimum: 0, default: 3 }],
    ['boolean', { type: 'boolean', default: false }],
    ['array', { type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 0, maxItems: 1, default: [] }],
    ['array', { type: 'array', items: { type: 'string', anyOf: [{ const: 'a', title: 'A' }] } }],
  ];
  for (const [type, property] of valid) assert.equal(keywordValueProblem(type, property), undefined, JSON.stringify(property));
  assert.equal(keywordValueProblem('null', { type: 'null' }), undefined, 'not a primitive type: settled elsewhere');
});

test('with several broken keywords the first rule of the type is reported', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['string', { type: 'string', default: 3, format: 5, maxLength: -1 }, 'has a maxLength that is not a non-negative integer'],
    ['string', { type: 'string', default: 3, format: 5 }, 'has a format that is not a string'],
    ['string', { type: 'string', enum: 'a', oneOf: [], default: 1 }, 'has a default that is not a string'],
    ['string', { type: 'string', enum: 'a', oneOf: [] }, 'has both enum and oneOf'],
    ['string', { type: 'string', enum: [], enumNames: ['A'] }, 'has an enum that is not a non-empty array of strings'],
    ['string', { type: 'string', enumNames: 'A', oneOf: [{ const: 'a' }] }, 'has enumNames without enum'],
    ['string', { type: 'string', enum: ['a'], enumNames: ['A', 'B'] }, 'has enumNames that are not one string per enum value'],
    ['string', { type: 'string', enum: ['a'], enumNames: [1] }, 'has enumNames that are not one string per enum value'],
    ['string', { type: 'string', oneOf: [{ const: 'a', title: 1 }] }, 'has a oneOf that is not a non-empty array of {const: string, title: string}'],
    ['integer', { type: 'integer', default: 'x', maximum: 'y' }, 'has a maximum that is not a number'],
    ['boolean', { type: 'boolean', default: 'yes' }, 'has a default that is not a boolean'],
    ['array', { type: 'array', minItems: -1 }, 'is an array that is not a multi-select (items must be {type: "string", enum: [...]} or {anyOf: [{const, title}, ...]})'],
    ['array', { type: 'array', items: { type: 'string', enum: ['a'], not: {} } }, 'is an array that is not a multi-select (items must be {type: "string", enum: [...]} or {anyOf: [{const, title}, ...]})'],
    ['array', { type: 'array', items: { type: 'string', enum: ['a'] }, maxItems: 0.5, default: 'a' }, 'has a maxItems that is not a non-negative integer'],
    ['array', { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] }, default: [1] }, 'has a default that is not an array of strings'],
  ];
  for (const [type, property, reason] of cases) assert.equal(keywordValueProblem(type, property), reason, JSON.stringify(property));
});
