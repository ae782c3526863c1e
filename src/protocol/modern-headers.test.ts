/** @module Tests of the 2026-07-28 header rules: every missing, malformed and mismatched header, and the headers built for an upstream. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { headerSource } from './header-source.js';
import { checkModernHeaders, modernRequestHeaders, nameParamOf } from './modern-headers.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const call = (name: unknown) => ({ method: 'tools/call', params: { name, arguments: {}, _meta: META } });
const read = (uri: string) => ({ method: 'resources/read', params: { uri, _meta: META } });
const list = { method: 'tools/list', params: { _meta: META } };
const OK = { 'mcp-protocol-version': '2026-07-28' };

type Row = [name: string, message: { method: string; params?: unknown }, headers: Record<string, string>, code?: number, header?: string];

const ROWS: Row[] = [
  ['tools/list with version and method', list, { ...OK, 'mcp-method': 'tools/list' }],
  ['header names in any case', list, { 'MCP-PROTOCOL-VERSION': '2026-07-28', 'MCP-METHOD': 'tools/list' }],
  ['tools/call with its name', call('restart_service'), { ...OK, 'mcp-method': 'tools/call', 'mcp-name': 'restart_service' }],
  ['tools/call with an encoded name', call('héllo'), { ...OK, 'mcp-method': 'tools/call', 'mcp-name': '=?base64?aMOpbGxv?=' }],
  ['a plain name sent encoded anyway', call('plain'), { ...OK, 'mcp-method': 'tools/call', 'mcp-name': '=?base64?cGxhaW4=?=' }],
  ['prompts/get with its name', { method: 'prompts/get', params: { name: 'triage', _meta: META } }, { ...OK, 'mcp-method': 'prompts/get', 'mcp-name': 'triage' }],
  ['resources/read with its uri', read('file:///a%20b.txt'), { ...OK, 'mcp-method': 'resources/read', 'mcp-name': 'file:///a%20b.txt' }],
  ['no envelope version: left to the envelope check', { method: 'tools/list', params: {} }, { ...OK, 'mcp-method': 'tools/list' }],
  ['no version header', list, { 'mcp-method': 'tools/list' }, -32020, 'mcp-protocol-version'],
  ['version header differs from the envelope', list, { 'mcp-protocol-version': '2027-01-01', 'mcp-method': 'tools/list' }, -32020, 'mcp-protocol-version'],
  ['no method header', list, OK, -32020, 'mcp-method'],
  ['method header of another method', list, { ...OK, 'mcp-method': 'prompts/list' }, -32020, 'mcp-method'],
  ['method header in another case', list, { ...OK, 'mcp-method': 'TOOLS/LIST' }, -32020, 'mcp-method'],
  ['method header duplicated (joined by the Fetch API)', list, { ...OK, 'mcp-method': 'tools/list, tools/list' }, -32020, 'mcp-method'],
  ['no name header on tools/call', call('x'), { ...OK, 'mcp-method': 'tools/call' }, -32020, 'mcp-name'],
  ['another name', call('restart_service'), { ...OK, 'mcp-method': 'tools/call', 'mcp-name': 'stop_service' }, -32020, 'mcp-name'],
  ['a malformed encoded name', call('x'), { ...OK, 'mcp-method': 'tools/call', 'mcp-name': '=?base64?%%?=' }, -32020, 'mcp-name'],
  ['a non-ASCII raw name', call('héllo'), { ...OK, 'mcp-method': 'tools/call', 'mcp-name': 'h\u00e9llo' }, -32020, 'mcp-name'],
  ['the literal marker form sent raw', call('=?base64?eA==?='), { ...OK, 'mcp-method': 'tools/call', 'mcp-name': '=?base64?eA==?=' }, -32020, 'mcp-name'],
  ['a uri header that differs', read('file:///a'), { ...OK, 'mcp-method': 'resources/read', 'mcp-name': 'file:///b' }, -32020, 'mcp-name'],
  ['a tool name that is not a string', call(7), { ...OK, 'mcp-method': 'tools/call', 'mcp-name': '7' }, -32602],
];

test('modern headers are checked against the body, each failure with its code and header', () => {
  for (const [name, message, headers, code, header] of ROWS) {
    const check = checkModernHeaders(headerSource(headers), message);
    if (code === undefined) {
      assert.deepEqual(check, { ok: true }, name);
      continue;
    }
    assert.equal(check.ok, false, name);
    if (check.ok) continue;
    assert.equal(check.error.code, code, name);
    if (header !== undefined) assert.deepEqual(check.error.data, { header }, name);
  }
});

test('the headers built for an upstream pass the check they will meet', () => {
  const messages = [list, call('restart_service'), call('Hello, 世界'), call(' spaced '), call('=?base64?eA==?='), read('file:///ü'), { method: 'prompts/get', params: { name: 'p', _meta: META } }];
  for (const message of messages) {
    const headers = modernRequestHeaders(message);
    assert.deepEqual(checkModernHeaders(headerSource(headers), message), { ok: true }, JSON.stringify(message.params));
  }
  assert.deepEqual(modernRequestHeaders(call('Hello, 世界')), {
    'mcp-method': 'tools/call',
    'mcp-protocol-version': '2026-07-28',
    'mcp-name': '=?base64?SGVsbG8sIOS4lueVjA==?=',
  });
  assert.deepEqual(modernRequestHeaders({ method: 'tools/list' }), { 'mcp-method': 'tools/list' });
});

test('only the three targeted methods have an Mcp-Name', () => {
  assert.deepEqual(
    ['tools/call', 'prompts/get', 'resources/read', 'tools/list', 'toString', 'constructor'].map(nameParamOf),
    ['name', 'name', 'uri', undefined, undefined, undefined],
  );
});
