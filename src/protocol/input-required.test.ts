/** @module Tests of InputRequiredResult checking and building. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { inputRequiredResult, mayRequireInput, parseInputRequiredResult } from './input-required.js';

const ELICIT = { method: 'elicitation/create', params: { mode: 'form', message: 'Restart?', requestedSchema: { type: 'object', properties: {} } } };
const SAMPLE = { method: 'sampling/createMessage', params: { maxTokens: 10, messages: [] } };

type Row = [name: string, method: string, result: unknown, ok: boolean];

const ROWS: Row[] = [
  ['one elicitation', 'tools/call', { resultType: 'input_required', inputRequests: { confirm: ELICIT } }, true],
  ['three kinds with state', 'prompts/get', { resultType: 'input_required', inputRequests: { a: ELICIT, b: SAMPLE, c: { method: 'roots/list' } }, requestState: 's' }, true],
  ['state only (load shedding)', 'resources/read', { resultType: 'input_required', requestState: '' }, true],
  ['empty requests with state', 'tools/call', { resultType: 'input_required', inputRequests: {}, requestState: 'x' }, true],
  ['roots with empty params', 'tools/call', { resultType: 'input_required', inputRequests: { r: { method: 'roots/list', params: {} } } }, true],
  ['extra fields kept', 'tools/call', { resultType: 'input_required', requestState: 's', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'u', version: '1' } }, vendor: 1 }, true],
  ['for tools/list', 'tools/list', { resultType: 'input_required', requestState: 's' }, false],
  ['for server/discover', 'server/discover', { resultType: 'input_required', requestState: 's' }, false],
  ['nothing asked, no state', 'tools/call', { resultType: 'input_required' }, false],
  ['empty requests, no state', 'tools/call', { resultType: 'input_required', inputRequests: {} }, false],
  ['wrong resultType', 'tools/call', { resultType: 'complete', requestState: 's' }, false],
  ['state not a string', 'tools/call', { resultType: 'input_required', requestState: 5 }, false],
  ['requests an array', 'tools/call', { resultType: 'input_required', inputRequests: [ELICIT] }, false],
  ['an unknown method', 'tools/call', { resultType: 'input_required', inputRequests: { p: { method: 'ping', params: {} } } }, false],
  ['a tasks method', 'tools/call', { resultType: 'input_required', inputRequests: { t: { method: 'tasks/get', params: {} } } }, false],
  ['elicitation without params', 'tools/call', { resultType: 'input_required', inputRequests: { e: { method: 'elicitation/create' } } }, false],
  ['params an array', 'tools/call', { resultType: 'input_required', inputRequests: { e: { method: 'sampling/createMessage', params: [] } } }, false],
  ['a full JSON-RPC request inside', 'tools/call', { resultType: 'input_required', inputRequests: { e: { ...ELICIT, jsonrpc: '2.0', id: 3 } } }, false],
  ['an empty key', 'tools/call', { resultType: 'input_required', inputRequests: { '': ELICIT } }, false],
  ['a request not an object', 'tools/call', { resultType: 'input_required', inputRequests: { e: 'elicitation/create' } }, false],
  ['_meta not an object', 'tools/call', { resultType: 'input_required', requestState: 's', _meta: 'm' }, false],
  ['not an object', 'tools/call', 'input_required', false],
];

test('input_required results are checked per the spec rules', () => {
  for (const [name, method, result, ok] of ROWS) {
    const parsed = parseInputRequiredResult(result, method);
    assert.equal(parsed.ok, ok, name);
    if (parsed.ok) assert.equal(parsed.result, result, `${name}: the result itself is returned`);
    else assert.ok(parsed.reason.length > 0, name);
  }
});

test('the builder refuses to build an empty request, and what it builds parses', () => {
  assert.throws(() => inputRequiredResult({}), TypeError);
  assert.throws(() => inputRequiredResult({ inputRequests: {} }), TypeError);
  const built = inputRequiredResult({ inputRequests: { confirm: { method: 'elicitation/create', params: ELICIT.params } }, requestState: 'sb1.x.y' });
  assert.deepEqual(built, { resultType: 'input_required', inputRequests: { confirm: ELICIT }, requestState: 'sb1.x.y' });
  assert.equal(parseInputRequiredResult(built, 'tools/call').ok, true);
  assert.deepEqual(inputRequiredResult({ inputRequests: {}, requestState: '' }), { resultType: 'input_required', requestState: '' });
});

test('only the three targeted methods may require input', () => {
  assert.deepEqual(['tools/call', 'prompts/get', 'resources/read', 'tools/list', 'completion/complete'].map(mayRequireInput), [true, true, true, false, false]);
});
