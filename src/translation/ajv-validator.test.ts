/** @module Tests of the ajv implementation of the JSON Schema validator port: issues, refused schemas, formats and the bounded cache. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { AjvSchemaValidator, sharedSchemaValidator } from './ajv-validator.js';
import type { ValueCheck } from './schema-validator.js';

function compiled(validator: AjvSchemaValidator, schema: Record<string, unknown>): ValueCheck {
  const result = validator.compile(schema);
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result.check;
}

test('a check reports every issue with its instance path, schema path, keyword and params', () => {
  const check = compiled(new AjvSchemaValidator(), {
    type: 'object',
    properties: { confirm: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string', enum: ['a'] } } },
    required: ['confirm'],
    additionalProperties: false,
  });
  assert.deepEqual(check({ confirm: true, tags: ['a'] }), { ok: true });
  const verdict = check({ tags: ['b'], extra: 1 });
  assert.equal(verdict.ok, false);
  if (verdict.ok) return;
  const seen = verdict.issues.map((issue) => `${issue.keyword} ${issue.instancePath} ${issue.schemaPath}`);
  assert.deepEqual(seen.sort(), ['additionalProperties  #/additionalProperties', 'enum /tags/0 #/properties/tags/items/enum', 'required  #/required'].sort());
  assert.deepEqual(verdict.issues.find((issue) => issue.keyword === 'required')?.params, { missingProperty: 'confirm' });
  assert.deepEqual(verdict.issues.find((issue) => issue.keyword === 'additionalProperties')?.params, { additionalProperty: 'extra' });
});

test('numbers are finite and strings count code points', () => {
  const validator = new AjvSchemaValidator();
  const number = compiled(validator, { type: 'number' });
  for (const value of [Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(number(value).ok, false, String(value));
  assert.equal(number(3.5).ok, true);
  const short = compiled(validator, { type: 'string', maxLength: 3 });
  assert.equal(short('😀😀😀').ok, true);
  assert.equal(short('😀😀😀😀').ok, false);
});

test('a schema that cannot be compiled is a reason, never a throw', () => {
  const validator = new AjvSchemaValidator();
  const cyclic: Record<string, unknown> = { type: 'object' };
  cyclic.properties = { self: cyclic };
  const refused: [string, Record<string, unknown>, RegExp][] = [
    ['unknown keyword (strict)', { type: 'string', colour: 'red' }, /unknown keyword/],
    ['keyword without its type (strict)', { minLength: 1 }, /missing type/],
    ['unknown format', { type: 'string', format: 'hostname' }, /unknown format/],
    ['remote $ref is never loaded', { $ref: 'https://example.org/schema.json' }, /can't resolve reference/],
    ['a keyword of the wrong kind', { type: 'string', minLength: -1 }, /minLength/],
    ['not JSON', cyclic, /not JSON/],
  ];
  for (const [name, schema, reason] of refused) {
    const result = validator.compile(schema);
    assert.equal(result.ok, false, name);
    if (!result.ok) assert.match(result.reason, reason, name);
  }
  // The same $id twice is not "already exists": nothing is added to ajv's registry.
  assert.ok(validator.compile({ $id: 'https://example.org/x', type: 'string' }).ok);
  assert.ok(validator.compile({ $id: 'https://example.org/x', type: 'number' }).ok);
});

test('the formats: email and uri as lenient as the gateway always was, date as ajv-formats has it, date-time in RFC 3339 shape', () => {
  const validator = new AjvSchemaValidator();
  const cases: [format: string, text: string, ok: boolean][] = [
    ['email', 'a.b@example.org', true],
    ['email', 'a@localhost', false],
    ['email', 'a@b@example.org', false],
    ['email', '@example.org', false],
    ['uri', 'https://example.org/x?y=1', true],
    ['uri', 'urn:isbn:0451450523', true],
    ['uri', 'example.org/x', false],
    ['uri', 'https://exa mple.org', false],
    // What hosts were always let through (a relay refuses only what is plainly not an address or a URI).
    ['email', 'müller@example.de', true],
    ['email', 'a.@x.org', true],
    ['email', 'a b@example.org', false],
    ['uri', 'https://example.org/straße', true],
    ['uri', 'x:', true],
    ['uri', '1http://example.org', false],
    ['date', '2024-02-29', true],
    ['date', '2000-02-29', true],
    ['date', '1900-02-29', false],
    ['date', '2025-04-31', false],
    ['date', '2025-13-01', false],
    ['date', '2025-01-00', false],
    ['date', '2025-2-1', false],
    ['date', '20250101', false],
    ['date-time', '2025-06-18T12:30:00Z', true],
    ['date-time', '2025-06-18T12:30:00.125+05:30', true],
    ['date-time', '2025-06-18t01:02:03z', true],
    ['date-time', '2016-12-31T23:59:60Z', true],
    ['date-time', '2025-06-18T12:30:00', false],
    ['date-time', '2025-06-18T24:00:00Z', false],
    ['date-time', '2025-06-18T12:60:00Z', false],
    ['date-time', '2025-06-18T12:00:00+24:00', false],
    ['date-time', '2025-02-30T00:00:00Z', false],
    // ajv-formats alone accepts these three; RFC 3339 §5.6 does not.
    ['date-time', '2025-06-18 12:00:00Z', false],
    ['date-time', '2025-06-18T12:00:00+0530', false],
    ['date-time', '2025-06-18T12:00:00+05', false],
  ];
  for (const [format, text, ok] of cases) {
    assert.equal(compiled(validator, { type: 'string', format })(text).ok, ok, `${format} ${text}`);
  }
});

test('an equal schema compiles once, by identity or by canonical text', () => {
  const validator = new AjvSchemaValidator();
  const schema = { type: 'object', properties: { a: { type: 'string' } } };
  const first = compiled(validator, schema);
  assert.equal(compiled(validator, schema), first, 'same object');
  assert.equal(compiled(validator, { properties: { a: { type: 'string' } }, type: 'object' }), first, 'equal text, other key order');
  assert.notEqual(compiled(validator, { type: 'object', properties: { a: { type: 'number' } } }), first);
  assert.equal(validator.cached, 2);
  assert.equal(sharedSchemaValidator(), sharedSchemaValidator());
});

test('the cache is bounded: the least recently used schema is dropped and compiles anew', () => {
  const validator = new AjvSchemaValidator({ cacheSize: 2 });
  const a = compiled(validator, { type: 'string' });
  const b = compiled(validator, { type: 'number' });
  assert.equal(compiled(validator, { type: 'string' }), a, 'a is used again, so b is now the oldest');
  compiled(validator, { type: 'boolean' });
  assert.equal(validator.cached, 2);
  assert.equal(compiled(validator, { type: 'string' }), a, 'a stayed');
  const again = compiled(validator, { type: 'number' });
  assert.notEqual(again, b, 'b was dropped and compiled again');
  assert.equal(again(3).ok, true);
  assert.equal(again('3').ok, false);
  for (let i = 0; i < 50; i++) compiled(validator, { type: 'string', maxLength: i });
  assert.equal(validator.cached, 2);
});
