/** @module Tests of retry params: building, reading, and the shape of each kind of answer. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { InputRequest } from './input-required.js';
import { inputResponseProblem, originalParams, readRetryParams, retryParams } from './input-retry.js';

const ORIGINAL = Object.freeze({ name: 'restart_service', arguments: { service: 'payments-api' }, _meta: { progressToken: 1 } });

test('a retry is the original params plus this round’s answers and the exact state', () => {
  const answers = { confirm: { action: 'accept', content: { confirm: true } } };
  const state = 'sb1.eyJ2IjoxfQ.\u00e9\ud83d\ude00 exact';
  const first = retryParams(ORIGINAL, { inputResponses: answers, requestState: state });
  assert.deepEqual(first, { ...ORIGINAL, inputResponses: answers, requestState: state });
  assert.equal(first.requestState, state, 'byte for byte');
  const second = retryParams(first, { inputResponses: { other: { action: 'decline' } }, requestState: 'next' });
  assert.deepEqual(second, { ...ORIGINAL, inputResponses: { other: { action: 'decline' } }, requestState: 'next' }, 'the earlier round is replaced, not merged');
  assert.deepEqual(retryParams(first, { requestState: 's' }), { ...ORIGINAL, requestState: 's' }, 'state only: no inputResponses');
  assert.deepEqual(retryParams(first, { inputResponses: {} }), ORIGINAL, 'no state given: none sent back');
  assert.deepEqual(originalParams(first), ORIGINAL);
});

test('retry fields are read strictly', () => {
  const cases: [unknown, unknown][] = [
    [undefined, {}],
    [{ name: 'x' }, {}],
    [{ inputResponses: { a: { action: 'accept' } }, requestState: '' }, { inputResponses: { a: { action: 'accept' } }, requestState: '' }],
    [{ requestState: 'abc' }, { requestState: 'abc' }],
    [{ inputResponses: [] }, 'invalid'],
    [{ inputResponses: { a: 'yes' } }, 'invalid'],
    [{ inputResponses: { a: null } }, 'invalid'],
    [{ requestState: 42 }, 'invalid'],
    [{ requestState: null }, 'invalid'],
    ['params', 'invalid'],
  ];
  for (const [params, expected] of cases) {
    const read = readRetryParams(params);
    assert.deepEqual(read.ok ? read.retry : 'invalid', expected, JSON.stringify(params));
  }
});

test('each kind of answer is checked against the kind of question', () => {
  const elicit: InputRequest = { method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } };
  const sample: InputRequest = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };
  const roots: InputRequest = { method: 'roots/list' };
  const cases: [InputRequest, unknown, boolean][] = [
    [elicit, { action: 'accept', content: { confirm: true } }, true],
    [elicit, { action: 'decline' }, true],
    [elicit, { action: 'cancel' }, true],
    [elicit, { action: 'ok' }, false],
    [elicit, { action: 'accept', content: 'yes' }, false],
    [elicit, { action: 'accept', resultType: 'complete' }, false],
    [sample, { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } }, true],
    [sample, { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'hi' }] }, true],
    [sample, { role: 'assistant', content: { type: 'text', text: 'hi' } }, false],
    [sample, { action: 'accept' }, false],
    [roots, { roots: [{ uri: 'file:///w' }] }, true],
    [roots, { roots: {} }, false],
    [roots, [], false],
  ];
  for (const [request, response, ok] of cases) {
    assert.equal(inputResponseProblem(request, response) === undefined, ok, `${request.method} ${JSON.stringify(response)}`);
  }
});
