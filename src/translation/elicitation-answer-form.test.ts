/** @module Tests of the answer form: what of a requested schema is compiled, in which order problems are reported, and that a form compiles once. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject } from '../protocol/jsonrpc.js';
import { AjvSchemaValidator } from './ajv-validator.js';
import { answerFormOf, compileAnswerForm, contentProblem } from './elicitation-answer-form.js';
import type { JsonSchemaValidator } from './schema-validator.js';

/** A validator that records what it is asked to compile and hands it to a real one. */
function recording(): { validator: JsonSchemaValidator; seen: unknown[] } {
  const real = new AjvSchemaValidator();
  const seen: unknown[] = [];
  return {
    seen,
    validator: {
      compile(schema) {
        seen.push(schema);
        return real.compile(schema);
      },
    },
  };
}

const options = [
  { const: 'p1', title: 'Urgent' },
  { const: 'p3', title: 'Normal' },
];

test('only the keywords the answer rules define reach the engine', () => {
  const { validator, seen } = recording();
  const properties = {
    name: { type: 'string', title: 'Name', pattern: '^(a+)+$', minLength: 1, maxLength: 2.5, format: 'hostname', 'x-ui': 'wide' },
    email: { type: 'string', format: 'email', default: 'a@b.c' },
    priority: { type: 'string', oneOf: [...options, { title: 'no const' }] },
    nothing: { type: 'string', enum: [] },
    ratio: { type: 'number', minimum: 0, maximum: '9' },
    count: { type: 'integer', minimum: -3 },
    urgent: { type: 'boolean', default: true },
    teams: { type: 'array', items: { anyOf: options }, minItems: 1, maxItems: -1 },
    free: { type: 'array' },
  };
  const form = compileAnswerForm(validator, { type: 'object', properties });
  assert.notEqual(typeof form, 'string');
  assert.deepEqual(seen, [
    { type: 'string', minLength: 1 },
    { type: 'string', format: 'email' },
    { type: 'string', enum: ['p1', 'p3'] },
    { type: 'string', not: {} },
    { type: 'number', minimum: 0 },
    { type: 'integer', minimum: -3 },
    { type: 'boolean' },
    { type: 'array', items: { type: 'string', enum: ['p1', 'p3'] }, minItems: 1 },
    { type: 'array', items: { type: 'string' } },
  ]);
});

test('a property no value can answer is not compiled, and keeps its reason', () => {
  const { validator, seen } = recording();
  const form = compileAnswerForm(validator, { type: 'object', properties: { weird: { type: 'object' }, bare: 'string', ok: { type: 'boolean' } } });
  assert.ok(typeof form !== 'string');
  assert.deepEqual(seen, [{ type: 'boolean' }]);
  assert.deepEqual(contentProblem(form, { weird: {} }), { field: 'weird', reason: 'the requested schema has an unsupported type "object"' });
  assert.deepEqual(contentProblem(form, { bare: 'x' }), { field: 'bare', reason: 'the requested schema for it is not an object' });
  assert.equal(contentProblem(form, { ok: true }), undefined);
});

test('a property the engine refuses makes the whole form a reason naming it', () => {
  const refusing: JsonSchemaValidator = { compile: () => ({ ok: false, reason: 'engine says no' }) };
  assert.equal(compileAnswerForm(refusing, { type: 'object', properties: { a: { type: 'string' } } }), 'property "a": engine says no');
});

test('problems are reported unknown key first, then missing required key, then fields in content order', () => {
  const form = compileAnswerForm(new AjvSchemaValidator(), {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'integer', maximum: 3 }, c: { type: 'boolean' } },
    required: ['c', 'a', 7],
  });
  assert.ok(typeof form !== 'string');
  assert.deepEqual(contentProblem(form, { b: 'x', z: 1, a: 1 }), { field: 'z', reason: 'not in the requested schema' });
  assert.deepEqual(contentProblem(form, { b: 'x' }), { field: 'c', reason: 'required' });
  assert.deepEqual(contentProblem(form, { c: true, b: 4.5, a: 1 }), { field: 'b', reason: 'expected an integer' });
  assert.deepEqual(contentProblem(form, { c: true, a: 'x', b: 9 }), { field: 'b', reason: 'expected a value of at most 3' });
  assert.equal(contentProblem(form, { c: false, a: '' }), undefined);
});

test('within a field the kind of value comes first, then membership, then counts, then format', () => {
  const form = compileAnswerForm(new AjvSchemaValidator(), {
    type: 'object',
    properties: {
      s: { type: 'string', enum: ['abcdef@x.org'], maxLength: 3, format: 'email' },
      m: { type: 'array', items: { type: 'string', enum: ['a'] }, maxItems: 1 },
    },
  });
  assert.ok(typeof form !== 'string');
  assert.deepEqual(contentProblem(form, { s: 5 }), { field: 's', reason: 'expected a string' });
  assert.deepEqual(contentProblem(form, { s: 'not an email at all' }), { field: 's', reason: 'not one of the allowed values' });
  assert.deepEqual(contentProblem(form, { s: 'abcdef@x.org' }), { field: 's', reason: 'expected at most 3 characters' });
  assert.deepEqual(contentProblem(form, { m: ['b', 1, 'a'] }), { field: 'm', reason: 'expected an array of strings' });
  assert.deepEqual(contentProblem(form, { m: ['b', 'a'] }), { field: 'm', reason: 'contains a value that is not one of the allowed values' });
  assert.deepEqual(contentProblem(form, { m: ['a', 'a'] }), { field: 'm', reason: 'expected at most 1 items' });
});

test('a property named __proto__ is a field like any other', () => {
  const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}') as JsonObject & { properties: JsonObject };
  const form = compileAnswerForm(new AjvSchemaValidator(), schema);
  assert.ok(typeof form !== 'string');
  assert.equal(contentProblem(form, JSON.parse('{"__proto__":"x"}') as JsonObject), undefined);
  assert.deepEqual(contentProblem(form, JSON.parse('{"__proto__":3}') as JsonObject), { field: '__proto__', reason: 'expected a string' });
  assert.deepEqual(contentProblem(form, {}), { field: '__proto__', reason: 'required' });
});

test('answerFormOf compiles a schema object once', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } } };
  assert.equal(answerFormOf(schema), answerFormOf(schema));
  assert.notEqual(answerFormOf(schema), answerFormOf({ type: 'object', properties: { a: { type: 'string' } } }));
});
