/** @module Tests of the flat-form check on an elicitation's requestedSchema: every allowed shape passes, every other is named by path; each type's keyword-value schema compiles, and the first broken rule is the one reported. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject } from '../protocol/jsonrpc.js';
import { checkRequestedSchema, keywordValueProblem, propertyPath } from './elicitation-schema.js';

const options = [
  { const: 'ops', title: 'Operations' },
  { const: 'dev', title: 'Development' },
];

/** Form params whose schema has the one property `field` (or the given properties object). */
const form = (field: unknown, schemaExtra: JsonObject = {}): JsonObject => ({
  message: 'Please answer',
  requestedSchema: { type: 'object', properties: { field }, ...schemaExtra },
});

const VALID: [string, unknown][] = [
  ['plain string', { type: 'string' }],
  ['string with every keyword and an unlisted pattern', { type: 'string', title: 'T', description: 'D', minLength: 1, maxLength: 9, format: 'email', pattern: '^a', default: 'a@b.c' }],
  ['untitled single-select', { type: 'string', enum: ['ops', 'dev'], default: 'ops' }],
  ['legacy enum + enumNames', { type: 'string', enum: ['ops', 'dev'], enumNames: ['Operations', 'Development'] }],
  ['titled single-select', { type: 'string', oneOf: options, default: 'dev' }],
  ['number', { type: 'number', minimum: 0.5, maximum: 9.5, default: 3.5 }],
  ['integer', { type: 'integer', minimum: 0, maximum: 9, default: 3 }],
  ['boolean with default', { type: 'boolean', default: true }],
  ['untitled multi-select', { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 0, maxItems: 2, default: ['a'] }],
  ['titled multi-select', { type: 'array', items: { anyOf: options } }],
  ['titled multi-select with items.type string', { type: 'array', items: { type: 'string', anyOf: options } }],
];

test('every primitive shape of the 2025-11-25 grammar passes', () => {
  for (const [name, property] of VALID) assert.equal(checkRequestedSchema(form(property)), undefined, name);
});

test('a form with no properties, optional $schema, required and additionalProperties: false passes', () => {
  const params = {
    mode: 'form',
    message: 'ok',
    requestedSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
  };
  assert.equal(checkRequestedSchema(params), undefined);
  assert.equal(checkRequestedSchema({ message: 'empty', requestedSchema: { type: 'object', properties: {} } }), undefined);
});

test('URL mode and unknown modes are not checked here', () => {
  assert.equal(checkRequestedSchema({ mode: 'url', message: 'Sign in', url: 'https://x.test', elicitationId: 'e' }), undefined);
  assert.equal(checkRequestedSchema({ mode: 'carrier-pigeon', message: 'x' }), undefined);
});

const FIELD = 'requestedSchema.properties.field';

const INVALID: [name: string, params: JsonObject, path: string, reason: RegExp][] = [
  // the top level
  ['no requestedSchema', { message: 'x' }, 'requestedSchema', /is missing/],
  ['requestedSchema is an array', { message: 'x', requestedSchema: [] }, 'requestedSchema', /must be an object/],
  ['type is not object', { message: 'x', requestedSchema: { type: 'array', properties: {} } }, 'requestedSchema.type', /must be "object", not "array"/],
  ['type missing', { message: 'x', requestedSchema: { properties: {} } }, 'requestedSchema.type', /must be "object", not nothing/],
  ['properties missing', { message: 'x', requestedSchema: { type: 'object' } }, 'requestedSchema.properties', /is missing/],
  ['properties is an array', { message: 'x', requestedSchema: { type: 'object', properties: [{ type: 'string' }] } }, 'requestedSchema.properties', /must be an object/],
  ['top-level $ref', { message: 'x', requestedSchema: { type: 'object', properties: {}, $ref: '#/x' } }, 'requestedSchema.$ref', /not allowed/],
  ['top-level $defs', form({ type: 'string' }, { $defs: { a: { type: 'string' } } }), 'requestedSchema.$defs', /not allowed/],
  ['top-level allOf', form({ type: 'string' }, { allOf: [] }), 'requestedSchema.allOf', /not allowed/],
  ['additionalProperties as a schema', form({ type: 'string' }, { additionalProperties: { type: 'object' } }), 'requestedSchema.additionalProperties', /not allowed/],
  ['required is not an array', form({ type: 'string' }, { required: 'field' }), 'requestedSchema.required', /array of property names/],
  ['required names a missing property', form({ type: 'string' }, { required: ['field', 'ghost'] }), 'requestedSchema.required', /"ghost", which is not a property/],
  // nesting and references
  ['nested object', form({ type: 'object', properties: { street: { type: 'string' } } }), FIELD, /is a nested object/],
  ['nested object without type', form({ properties: { street: { type: 'string' } } }), FIELD, /is a nested object/],
  ['$ref property', form({ $ref: '#/$defs/address' }), FIELD, /uses \$ref/],
  ['$ref next to a type', form({ type: 'string', $ref: '#/$defs/name' }), FIELD, /uses \$ref/],
  ['allOf on a string', form({ type: 'string', allOf: [{ minLength: 1 }] }), FIELD, /uses allOf/],
  ['anyOf on a string', form({ type: 'string', anyOf: options }), FIELD, /uses anyOf/],
  ['not on a number', form({ type: 'number', not: { const: 3 } }), FIELD, /uses not/],
  ['properties on a string', form({ type: 'string', properties: {} }), FIELD, /uses properties/],
  ['items on a string', form({ type: 'string', items: { type: 'string' } }), FIELD, /uses items/],
  // arrays that are not multi-selects
  ['array of free strings', form({ type: 'array', items: { type: 'string' } }), FIELD, /array that is not a multi-select/],
  ['array of numbers', form({ type: 'array', items: { type: 'number', enum: [1, 2] } }), FIELD, /array that is not a multi-select/],
  ['array of objects', form({ type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } }), FIELD, /array that is not a multi-select/],
  ['array without items', form({ type: 'array' }), FIELD, /array that is not a multi-select/],
  ['multi-select items with a $ref', form({ type: 'array', items: { type: 'string', enum: ['a'], $ref: '#/x' } }), FIELD, /array that is not a multi-select/],
  ['titled multi-select with untitled options', form({ type: 'array', items: { anyOf: [{ const: 'a' }] } }), FIELD, /array that is not a multi-select/],
  ['multi-select with a negative minItems', form({ type: 'array', items: { type: 'string', enum: ['a'] }, minItems: -1 }), FIELD, /minItems that is not a non-negative integer/],
  ['multi-select default that is not string[]', form({ type: 'array', items: { type: 'string', enum: ['a'] }, default: 'a' }), FIELD, /default that is not an array of strings/],
  // types
  ['no type', form({ title: 'Name' }), FIELD, /has no type/],
  ['type list', form({ type: ['string', 'null'] }), FIELD, /one type name/],
  ['null type', form({ type: 'null' }), FIELD, /has type "null"/],
  ['property is not an object', form('string'), FIELD, /must be a schema object/],
  // keywords of the wrong kind
  ['enum on a number', form({ type: 'number', enum: [1, 2] }), FIELD, /uses enum, which only string properties can have/],
  ['minItems on a string', form({ type: 'string', minItems: 1 }), FIELD, /uses minItems, which only array properties can have/],
  ['oneOf on a boolean', form({ type: 'boolean', oneOf: options }), FIELD, /uses oneOf/],
  ['enum of numbers on a string', form({ type: 'string', enum: [1, 2] }), FIELD, /enum that is not a non-empty array of strings/],
  ['empty enum', form({ type: 'string', enum: [] }), FIELD, /enum that is not a non-empty array of strings/],
  ['enum and oneOf together', form({ type: 'string', enum: ['ops'], oneOf: options }), FIELD, /both enum and oneOf/],
  ['enumNames without enum', form({ type: 'string', enumNames: ['A'] }), FIELD, /enumNames without enum/],
  ['enumNames of another length', form({ type: 'string', enum: ['a', 'b'], enumNames: ['A'] }), FIELD, /one string per enum value/],
  ['oneOf option without title', form({ type: 'string', oneOf: [{ const: 'a' }] }), FIELD, /oneOf that is not/],
  ['string default that is a number', form({ type: 'string', default: 3 }), FIELD, /default that is not a string/],
  ['number default that is a string', form({ type: 'number', default: '3' }), FIELD, /default that is not a number/],
  ['boolean default that is a string', form({ type: 'boolean', default: 'yes' }), FIELD, /default that is not a boolean/],
  ['minimum that is a string', form({ type: 'integer', minimum: '0' }), FIELD, /minimum that is not a number/],
  ['maxLength that is a fraction', form({ type: 'string', maxLength: 2.5 }), FIELD, /maxLength that is not a non-negative integer/],
  ['format that is not a string', form({ type: 'string', format: 5 }), FIELD, /format that is not a string/],
];

test('every shape that is not a flat primitive form is refused, naming the path', () => {
  for (const [name, params, path, reason] of INVALID) {
    const problem = checkRequestedSchema(params);
    assert.ok(problem, `${name}: expected a problem`);
    assert.equal(problem.path, path, name);
    assert.match(problem.reason, reason, name);
  }
});

test('the path names the offending property among valid ones, quoting names that are not identifiers', () => {
  const params = {
    message: 'x',
    requestedSchema: { type: 'object', properties: { ok: { type: 'string' }, 'home address': { type: 'object', properties: {} }, later: { type: 'object' } } },
  };
  assert.deepEqual(checkRequestedSchema(params), { path: 'requestedSchema.properties["home address"]', reason: 'is a nested object; elicitation forms are flat (primitive properties only)' });
  assert.equal(propertyPath('a_b$1'), 'requestedSchema.properties.a_b$1');
  assert.equal(propertyPath('a.b'), 'requestedSchema.properties["a.b"]');
});

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
