/** @module Tests of elicitation answer validation against the requested schema, and of the answer form: what of a requested schema is compiled, in which order problems are reported, and that a form compiles once. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject } from '../protocol/jsonrpc.js';
import { AjvSchemaValidator } from './ajv-validator.js';
import { answerFormOf, compileAnswerForm, contentProblem, sameAnswerForm, validateElicitAnswer } from './elicitation-answer.js';
import type { JsonSchemaValidator } from './schema-validator.js';

/** One property per rule; `required` only on `ticket`. */
const schema = {
  type: 'object',
  properties: {
    ticket: { type: 'string', minLength: 2, maxLength: 5 },
    queue: { type: 'string', enum: ['ops', 'sec'] },
    priority: { type: 'string', oneOf: [{ const: 'p1', title: 'Urgent' }, { const: 'p3', title: 'Normal' }] },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    due: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    odd: { type: 'string', format: 'hostname' },
    ratio: { type: 'number', minimum: 0, maximum: 10 },
    count: { type: 'integer', minimum: 1, maximum: 3 },
    urgent: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    teams: { type: 'array', items: { anyOf: [{ const: 'red', title: 'Red' }, { const: 'blue', title: 'Blue' }] } },
    free: { type: 'array', items: { type: 'string' } },
    weird: { type: 'object' },
  },
  required: ['ticket'],
};

type Case = [name: string, content: Record<string, unknown>, expected: true | { field: string; reason: RegExp }];

const bad = (field: string, reason: RegExp) => ({ field, reason });

const cases: Case[] = [
  // required and unknown keys
  ['only the required field', { ticket: 'T-1' }, true],
  ['required field missing', { urgent: true }, bad('ticket', /^field "ticket": required$/)],
  ['unknown key', { ticket: 'T-1', extra: 1 }, bad('extra', /^field "extra": not in the requested schema$/)],
  ['inherited key name is still unknown', JSON.parse('{"ticket":"T-1","__proto__":{"x":1}}') as Record<string, unknown>, bad('__proto__', /not in the requested schema/)],
  // string + minLength/maxLength (code points)
  ['string', { ticket: 'abcde' }, true],
  ['not a string', { ticket: 12 }, bad('ticket', /^field "ticket": expected a string$/)],
  ['null is not a string', { ticket: null }, bad('ticket', /expected a string/)],
  ['too short', { ticket: 'a' }, bad('ticket', /^field "ticket": expected at least 2 characters$/)],
  ['too long', { ticket: 'abcdef' }, bad('ticket', /^field "ticket": expected at most 5 characters$/)],
  ['astral characters count once', { ticket: '😀😀😀' }, true],
  // enum / oneOf const
  ['enum member', { ticket: 'T-1', queue: 'ops' }, true],
  ['not an enum member', { ticket: 'T-1', queue: 'dev' }, bad('queue', /^field "queue": not one of the allowed values$/)],
  ['oneOf const', { ticket: 'T-1', priority: 'p3' }, true],
  ['oneOf title is not a value', { ticket: 'T-1', priority: 'Urgent' }, bad('priority', /not one of the allowed values/)],
  // formats
  ['email', { ticket: 'T-1', email: 'a.b@example.org' }, true],
  ['email without a dot in the domain', { ticket: 'T-1', email: 'a@localhost' }, bad('email', /^field "email": expected a valid email$/)],
  ['email with two @', { ticket: 'T-1', email: 'a@b@example.org' }, bad('email', /valid email/)],
  ['email with empty local part', { ticket: 'T-1', email: '@example.org' }, bad('email', /valid email/)],
  ['uri', { ticket: 'T-1', site: 'https://example.org/x?y=1' }, true],
  ['uri with another scheme', { ticket: 'T-1', site: 'urn:isbn:0451450523' }, true],
  ['uri without a scheme', { ticket: 'T-1', site: 'example.org/x' }, bad('site', /^field "site": expected a valid uri$/)],
  ['uri with whitespace', { ticket: 'T-1', site: 'https://exa mple.org' }, bad('site', /valid uri/)],
  ['date', { ticket: 'T-1', due: '2024-02-29' }, true],
  ['date not in the calendar', { ticket: 'T-1', due: '2025-02-29' }, bad('due', /^field "due": expected a valid date$/)],
  ['date in the wrong shape', { ticket: 'T-1', due: '2025-2-1' }, bad('due', /valid date/)],
  ['date-time with Z', { ticket: 'T-1', at: '2025-06-18T12:30:00Z' }, true],
  ['date-time with offset and fraction', { ticket: 'T-1', at: '2025-06-18T12:30:00.125+05:30' }, true],
  ['date-time without offset', { ticket: 'T-1', at: '2025-06-18T12:30:00' }, bad('at', /^field "at": expected a valid date-time$/)],
  ['date-time with hour 24', { ticket: 'T-1', at: '2025-06-18T24:00:00Z' }, bad('at', /valid date-time/)],
  ['unknown format is not checked', { ticket: 'T-1', odd: 'not a hostname!' }, true],
  // number (3.5 is valid: schema.ts says number, schema.json wrongly says integer)
  ['number 3.5', { ticket: 'T-1', ratio: 3.5 }, true],
  ['number at the bounds', { ticket: 'T-1', ratio: 10 }, true],
  ['number as a string', { ticket: 'T-1', ratio: '3.5' }, bad('ratio', /^field "ratio": expected a number$/)],
  ['number below minimum', { ticket: 'T-1', ratio: -0.5 }, bad('ratio', /^field "ratio": expected a value of at least 0$/)],
  ['number above maximum', { ticket: 'T-1', ratio: 10.01 }, bad('ratio', /^field "ratio": expected a value of at most 10$/)],
  // integer
  ['integer', { ticket: 'T-1', count: 2 }, true],
  ['integer 3.0 (JSON cannot tell it from 3)', { ticket: 'T-1', count: 3.0 }, true],
  ['fraction for integer', { ticket: 'T-1', count: 2.5 }, bad('count', /^field "count": expected an integer$/)],
  ['integer below minimum', { ticket: 'T-1', count: 0 }, bad('count', /at least 1/)],
  ['integer above maximum', { ticket: 'T-1', count: 4 }, bad('count', /at most 3/)],
  // boolean
  ['boolean', { ticket: 'T-1', urgent: false }, true],
  ['boolean as a string', { ticket: 'T-1', urgent: 'true' }, bad('urgent', /^field "urgent": expected a boolean$/)],
  // multi-select
  ['multi-select items.enum', { ticket: 'T-1', tags: ['a', 'c'] }, true],
  ['multi-select not an array', { ticket: 'T-1', tags: 'a' }, bad('tags', /^field "tags": expected an array of strings$/)],
  ['multi-select with a number', { ticket: 'T-1', tags: ['a', 1] }, bad('tags', /expected an array of strings/)],
  ['multi-select value outside items.enum', { ticket: 'T-1', tags: ['a', 'z'] }, bad('tags', /^field "tags": contains a value that is not one of the allowed values$/)],
  ['multi-select below minItems', { ticket: 'T-1', tags: [] }, bad('tags', /^field "tags": expected at least 1 items$/)],
  ['multi-select above maxItems', { ticket: 'T-1', tags: ['a', 'b', 'c'] }, bad('tags', /^field "tags": expected at most 2 items$/)],
  ['multi-select items.anyOf const', { ticket: 'T-1', teams: ['red', 'blue'] }, true],
  ['multi-select value outside items.anyOf', { ticket: 'T-1', teams: ['Red'] }, bad('teams', /not one of the allowed values/)],
  ['free multi-select (no enum)', { ticket: 'T-1', free: ['anything'] }, true],
  // an unsupported property type in the schema
  ['unsupported schema type', { ticket: 'T-1', weird: {} }, bad('weird', /^field "weird": the requested schema has an unsupported type "object"$/)],
];

test('each field rule accepts a valid value and rejects an invalid one, naming the field', () => {
  for (const [name, content, expected] of cases) {
    const verdict = validateElicitAnswer({ action: 'accept', content }, schema);
    if (expected === true) {
      assert.deepEqual(verdict, { ok: true }, name);
    } else {
      assert.equal(verdict.ok, false, name);
      if (verdict.ok) continue;
      assert.equal(verdict.field, expected.field, name);
      assert.match(verdict.reason, expected.reason, name);
    }
  }
});

test('the result envelope: object, action, and when content is needed', () => {
  const optional = { type: 'object', properties: { note: { type: 'string' } } };
  const envelope: [string, unknown, unknown, boolean, RegExp?][] = [
    ['not an object', 'accept', schema, false, /must be an object/],
    ['array', [], schema, false, /must be an object/],
    ['missing action', { content: { ticket: 'T-1' } }, schema, false, /^field "action": expected "accept", "decline" or "cancel"$/],
    ['unknown action', { action: 'submit' }, schema, false, /field "action"/],
    ['decline without content', { action: 'decline' }, schema, true],
    ['cancel without content', { action: 'cancel' }, schema, true],
    ['decline content is not checked', { action: 'decline', content: { bogus: 1 } }, schema, true],
    ['accept without content, schema has required fields', { action: 'accept' }, schema, false, /^field "ticket": required, but the answer has no content$/],
    ['accept without content, nothing required', { action: 'accept' }, optional, true],
    ['accept with content that is not an object', { action: 'accept', content: ['T-1'] }, schema, false, /^field "content": expected an object$/],
    ['URL mode accept without content', { action: 'accept' }, undefined, true],
    ['URL mode accept with content', { action: 'accept', content: { a: 1 } }, undefined, false, /field "content": not expected/],
    ['schema without properties', { action: 'accept', content: {} }, { type: 'object' }, false, /not an object schema with properties/],
    ['extra result keys such as _meta are allowed', { action: 'accept', content: { ticket: 'T-1' }, _meta: { k: 1 } }, schema, true],
  ];
  for (const [name, result, requestedSchema, ok, reason] of envelope) {
    const verdict = validateElicitAnswer(result, requestedSchema);
    assert.equal(verdict.ok, ok, name);
    if (!verdict.ok && reason) assert.match(verdict.reason, reason, name);
  }
});

test('answer limits also apply to decline and cancel content', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 11; i++) deep = [deep];
  for (const action of ['decline', 'cancel']) {
    assert.deepEqual(validateElicitAnswer({ action, content: { x: deep } }, schema), {
      ok: false,
      field: 'content',
      reason: 'content is nested deeper than the 10-level limit',
    });
  }
});

test('answer limits are enforced before field checks (1 MB of content)', () => {
  const big = { type: 'object', properties: { text: { type: 'string' } } };
  const at = { text: 'x'.repeat(1024 * 1024 - '{"text":""}'.length) };
  const over = { text: 'x'.repeat(1024 * 1024 - '{"text":""}'.length + 1) };
  assert.deepEqual(validateElicitAnswer({ action: 'accept', content: at }, big), { ok: true });
  assert.deepEqual(validateElicitAnswer({ action: 'accept', content: over }, big), {
    ok: false,
    field: 'content',
    reason: 'content is 1048577 bytes, over the 1048576-byte limit',
  });
});

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

test('answerFormOf compiles a form once: per schema object, and equal forms (a schema and its downgraded copy) share one', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } } };
  assert.equal(answerFormOf(schema), answerFormOf(schema));
  assert.equal(answerFormOf(schema), answerFormOf({ type: 'object', properties: { a: { type: 'string', title: 'A', default: 'x' } } }));
  assert.notEqual(answerFormOf(schema), answerFormOf({ type: 'object', properties: { a: { type: 'string', minLength: 1 } } }));
  assert.notEqual(answerFormOf(schema), answerFormOf({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }));
  const titled = { type: 'object', properties: { c: { type: 'string', oneOf: options, default: 'p1' } }, required: ['c'] };
  const downgraded = { type: 'object', properties: { c: { type: 'string', enum: ['p1', 'p3'], enumNames: ['Urgent', 'Normal'] } }, required: ['c'] };
  assert.ok(sameAnswerForm(titled, downgraded));
  assert.ok(!sameAnswerForm(titled, schema));
  assert.ok(!sameAnswerForm({ type: 'object' }, { type: 'object' }), 'no form, nothing shared');
});

test('limitsChecked: the caller has measured the content, so it is not measured again', () => {
  const big = { type: 'object', properties: { text: { type: 'string' } } };
  const over = { text: 'x'.repeat(1024 * 1024) };
  assert.equal(validateElicitAnswer({ action: 'accept', content: over }, big).ok, false);
  assert.deepEqual(validateElicitAnswer({ action: 'accept', content: over }, big, { limitsChecked: true }), { ok: true });
  assert.deepEqual(validateElicitAnswer({ action: 'accept', content: { text: 1 } }, big, { limitsChecked: true }), { ok: false, field: 'text', reason: 'field "text": expected a string' });
});
