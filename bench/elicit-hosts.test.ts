/** @module Tests of the bench's asking hosts' pure readers: stream messages, input_required results, the restart result. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { checkRestarted, classifyStreamMessage, describeResult, readInputRequired } from './elicit-hosts.js';
import { selectedCells } from './elicitation-cell.js';

test('a message on a call stream is a question, the call result or error, or something else', () => {
  assert.deepEqual(classifyStreamMessage({ jsonrpc: '2.0', id: 'q1', method: 'elicitation/create', params: {} }, 3), { kind: 'question', id: 'q1' });
  assert.deepEqual(classifyStreamMessage({ jsonrpc: '2.0', id: 3, result: { content: [] } }, 3), { kind: 'result', result: { content: [] } });
  assert.deepEqual(classifyStreamMessage({ jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'x' } }, 3), { kind: 'error', message: 'JSON-RPC error -32603 x' });
  assert.deepEqual(classifyStreamMessage({ jsonrpc: '2.0', id: 4, result: {} }, 3), { kind: 'other' });
  assert.deepEqual(classifyStreamMessage({ jsonrpc: '2.0', method: 'notifications/progress', params: {} }, 3), { kind: 'other' });
  assert.deepEqual(classifyStreamMessage('noise', 3), { kind: 'other' });
});

test('input_required gives its one key and state; anything else is refused with what it was', () => {
  const result = { resultType: 'input_required', inputRequests: { approval: { method: 'elicitation/create', params: {} } }, requestState: 's' };
  assert.deepEqual(readInputRequired(result), { key: 'approval', requestState: 's' });
  assert.throws(() => readInputRequired({ ...result, inputRequests: { a: {}, b: {} } }), /got 2 \(a, b\)/);
  assert.throws(() => readInputRequired({ ...result, requestState: undefined }), /with a requestState/);
  assert.throws(() => readInputRequired({ content: [] }), /expected input_required/);
});

test('only a RESTARTED text result passes', () => {
  checkRestarted({ content: [{ type: 'text', text: 'RESTARTED payments-api under CHG-1' }] });
  assert.throws(() => checkRestarted({ content: [{ type: 'text', text: 'NOT RESTARTED payments-api: approval declined' }] }));
  assert.throws(() => checkRestarted({ content: [{ type: 'text', text: 'RESTARTED' }], isError: true }));
  assert.throws(() => checkRestarted(undefined));
});

test('a result in an error message: a tool error by its text, anything else by the start of its JSON', () => {
  const refused = { content: [{ type: 'text', text: 'restart_service: the host refused elicitation/create (-32601: Method not found)' }], isError: true };
  assert.equal(describeResult(refused), 'a tool error "restart_service: the host refused elicitation/create (-32601: Method not found)"');
  assert.equal(describeResult({ content: [] }), '{"content":[]}');
  assert.equal(describeResult(undefined), 'undefined');
  assert.throws(() => readInputRequired({ ...refused, resultType: 'complete' }), /got a tool error "restart_service: the host refused/);
  assert.throws(() => checkRestarted(refused), /unexpected tool result: a tool error/);
});

test('--targets names select the elicitation cells', () => {
  assert.deepEqual([...selectedCells(['elicitation'])], [1, 2, 3, 4]);
  assert.deepEqual([...selectedCells(['direct', 'elicitation-3', 'elicitation-1'])], [3, 1]);
  assert.equal(selectedCells(['cluster']).size, 0);
});
