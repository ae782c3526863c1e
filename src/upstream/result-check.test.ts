/** @module Which 2026-07-28 results are refused: an unknown resultType, or input_required where the request may not get it. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { modernResultProblem } from './result-check.js';

test('complete results, and results without resultType, are used', () => {
  assert.equal(modernResultProblem('tools/list', { resultType: 'complete', tools: [] }), undefined);
  assert.equal(modernResultProblem('tools/list', { tools: [] }), undefined);
});

test('an unknown resultType is refused with its value named', () => {
  assert.equal(modernResultProblem('tools/call', { resultType: 'task', task: {} }), 'unknown resultType "task"');
});

test('input_required is refused only where the request may not get it', () => {
  assert.equal(modernResultProblem('tools/call', { resultType: 'input_required', inputRequests: {} }), undefined);
  assert.equal(modernResultProblem('tools/list', { resultType: 'input_required', inputRequests: {} }), 'tools/list may not be answered with input_required');
});
