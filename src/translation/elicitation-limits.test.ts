/** @module Tests of the elicitation size and depth limits. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { checkAnswerLimits, checkRequestLimits, ELICITATION_LIMITS, exceedsDepth, jsonByteLength } from './elicitation-limits.js';

/** An object nested exactly `depth` levels: nest(1) = {a: 1}, nest(2) = {a: {a: 1}}. */
function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** A plausible requestedSchema whose JSON text is exactly `bytes` UTF-8 bytes long. */
function schemaOfBytes(bytes: number): Record<string, unknown> {
  const make = (description: string) => ({ type: 'object', properties: { note: { type: 'string', description } } });
  const base = jsonByteLength(make('')) ?? 0;
  const schema = make('x'.repeat(bytes - base));
  assert.equal(jsonByteLength(schema), bytes);
  return schema;
}

function contentOfBytes(bytes: number): Record<string, unknown> {
  const base = jsonByteLength({ a: '' }) ?? 0;
  return { a: 'x'.repeat(bytes - base) };
}

test('the limits are the ones in the issue', () => {
  assert.deepEqual(ELICITATION_LIMITS, { schemaBytes: 102400, schemaDepth: 10, answerBytes: 1048576, answerDepth: 10 });
});

test('depth counts object and array nesting levels', () => {
  const cases: [string, unknown, number][] = [
    ['scalar', 'x', 0],
    ['null', null, 0],
    ['flat object', { a: 1 }, 1],
    ['empty object', {}, 1],
    ['flat array', [1, 2], 1],
    ['object in object', { a: { b: 1 } }, 2],
    ['array in object', { a: ['x'] }, 2],
    ['deep branch beside shallow ones', { a: 1, b: { c: [{ d: 1 }] }, e: {} }, 4],
    ['nest(10)', nest(10), 10],
  ];
  for (const [name, value, depth] of cases) {
    assert.equal(exceedsDepth(value, depth), false, `${name}: not deeper than ${depth}`);
    if (depth > 0) assert.equal(exceedsDepth(value, depth - 1), true, `${name}: deeper than ${depth - 1}`);
  }
});

test('a cyclic value counts as too deep instead of looping', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(exceedsDepth(cyclic, 10), true);
  assert.match(checkRequestLimits({ requestedSchema: cyclic }) ?? '', /requestedSchema is nested deeper than the 10-level limit/);
});

test('request limits: requestedSchema bytes and depth, at and just over the boundary', () => {
  const cases: [string, Record<string, unknown>, RegExp | undefined][] = [
    ['no requestedSchema (URL mode)', { mode: 'url', url: 'https://x.example', message: 'm' }, undefined],
    ['small schema', { message: 'm', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } }, undefined],
    ['exactly 102400 bytes', { requestedSchema: schemaOfBytes(102400) }, undefined],
    ['102401 bytes', { requestedSchema: schemaOfBytes(102401) }, /^requestedSchema is 102401 bytes, over the 102400-byte limit$/],
    // 2-byte characters: fewer than 102400 characters but more than 102400 bytes.
    ['multi-byte text counted in UTF-8 bytes, not characters', { requestedSchema: { type: 'object', properties: { a: { type: 'string', description: 'é'.repeat(51200) } } } }, /^requestedSchema is 1024\d\d bytes, over the 102400-byte limit$/],
    ['depth 10', { requestedSchema: nest(10) }, undefined],
    ['depth 11', { requestedSchema: nest(11) }, /^requestedSchema is nested deeper than the 10-level limit$/],
  ];
  for (const [name, params, expected] of cases) {
    const reason = checkRequestLimits(params);
    if (expected === undefined) assert.equal(reason, undefined, name);
    else assert.match(reason ?? '', expected, name);
  }
});

test('the byte limit applies to requestedSchema only, not to the rest of the params', () => {
  assert.equal(checkRequestLimits({ message: 'x'.repeat(200_000), requestedSchema: { type: 'object', properties: {} } }), undefined);
});

test('answer limits: content bytes and depth, at and just over the boundary', () => {
  const cases: [string, Record<string, unknown>, RegExp | undefined][] = [
    ['decline without content', { action: 'decline' }, undefined],
    ['small content', { action: 'accept', content: { a: 'b' } }, undefined],
    ['exactly 1048576 bytes', { action: 'accept', content: contentOfBytes(1048576) }, undefined],
    ['1048577 bytes', { action: 'accept', content: contentOfBytes(1048577) }, /^content is 1048577 bytes, over the 1048576-byte limit$/],
    ['depth 10', { action: 'accept', content: nest(10) }, undefined],
    ['depth 11', { action: 'accept', content: nest(11) }, /^content is nested deeper than the 10-level limit$/],
  ];
  for (const [name, result, expected] of cases) {
    const reason = checkAnswerLimits(result);
    if (expected === undefined) assert.equal(reason, undefined, name);
    else assert.match(reason ?? '', expected, name);
  }
});

test('a value JSON cannot serialize is reported, not thrown', () => {
  assert.equal(checkRequestLimits({ requestedSchema: { n: 10n } }), 'requestedSchema is not serializable as JSON');
});
