/** @module Tests of the arguments check of tools/call and prompts/get. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { callArgumentsProblem } from './call-arguments.js';

test('tools/call arguments: absent or an object; anything else is named', () => {
  assert.equal(callArgumentsProblem('tools/call', {}), undefined);
  assert.equal(callArgumentsProblem('tools/call', { arguments: { a: [1], b: { c: 2 } } }), undefined);
  for (const args of [null, [], 'x', 3, true]) assert.equal(callArgumentsProblem('tools/call', { arguments: args }), 'arguments must be an object');
});

test('prompts/get arguments: an object of strings', () => {
  assert.equal(callArgumentsProblem('prompts/get', { arguments: { topic: 'x' } }), undefined);
  assert.equal(callArgumentsProblem('prompts/get', { arguments: ['x'] }), 'arguments must be an object of strings');
  assert.equal(callArgumentsProblem('prompts/get', { arguments: { topic: 1 } }), 'arguments.topic must be a string');
});
