/** @module Tests of the generated JSON Schema, including that the committed schema/config.json is up to date. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { valueAt } from './config-path.js';
import { CONFIG_SCHEMA_ID, configJsonSchema, configJsonSchemaText } from './json-schema.js';

const COMMITTED = new URL('../../schema/config.json', import.meta.url);
const schema = configJsonSchema();
const at = (...path: (string | number)[]): unknown => valueAt(schema, path);
const UPSTREAM = ['properties', 'upstreams', 'additionalProperties'];

test('schema/config.json matches the zod schema (run `npm run gen` after changing it)', () => {
  assert.equal(readFileSync(COMMITTED, 'utf8'), configJsonSchemaText());
});

test('the JSON Schema describes the file as written', () => {
  assert.equal(at('$schema'), 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(at('$id'), CONFIG_SCHEMA_ID);
  assert.equal(at('title'), 'Switchboard configuration');
  assert.equal(at('additionalProperties'), false);
  assert.deepEqual(at('required'), ['upstreams']);
  assert.equal(at('properties', 'upstreams', 'propertyNames', 'pattern'), '^[A-Za-z0-9][A-Za-z0-9_-]*$');
  assert.equal(at(...UPSTREAM, 'additionalProperties'), false);
  assert.deepEqual(at(...UPSTREAM, 'oneOf'), [{ required: ['command'] }, { required: ['url'] }]);
  assert.deepEqual(at(...UPSTREAM, 'properties', 'transport', 'enum'), ['stdio', 'streamable-http', 'sse']);
  // Durations and sizes are described by their input forms, with the defaults as written.
  assert.equal(at(...UPSTREAM, 'properties', 'timeout', 'default'), '5m');
  assert.equal(at(...UPSTREAM, 'properties', 'timeout', 'anyOf', 0, 'type'), 'integer');
  assert.equal(at(...UPSTREAM, 'properties', 'timeout', 'anyOf', 1, 'type'), 'string');
  assert.equal(at('properties', 'http', 'properties', 'maxBodySize', 'default'), '4mb');
  assert.equal(at('properties', 'listen', 'default'), '127.0.0.1:3939');
});

test('the duration and size patterns in the JSON Schema agree with the parsers', () => {
  const duration = new RegExp(String(at('properties', 'retry', 'properties', 'initialDelay', 'anyOf', 1, 'pattern')));
  for (const text of ['500ms', '30s', '5m', '1h', '1h30m', '1.5s']) assert.match(text, duration);
  for (const text of ['5', '5 m', '1d', '-1s']) assert.doesNotMatch(text, duration);
  const size = new RegExp(String(at('properties', 'http', 'properties', 'maxBodySize', 'anyOf', 1, 'pattern')));
  for (const text of ['512b', '64kb', '4MB', '4 mb', '1gb']) assert.match(text, size);
  for (const text of ['4', '4m', '4tb']) assert.doesNotMatch(text, size);
});
