/** @module Tests of the Mcp-Param-* rules: which arguments travel as headers, how they are encoded, and the server-side check. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { headerSource } from './header-source.js';
import { checkParamHeaders, paramHeaderNames, paramHeadersFor } from './param-headers.js';

const SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    note: { type: 'string' },
    bad: { type: 'string', 'x-mcp-header': 'no spaces allowed' },
  },
};

test('only well-named marked properties become headers, lower-cased', () => {
  assert.deepEqual([...paramHeaderNames(SCHEMA)], [
    ['region', 'mcp-param-region'],
    ['count', 'mcp-param-count'],
  ]);
  assert.equal(paramHeaderNames(undefined).size, 0);
});

test('a client mirrors marked arguments, encoding what is not plain ASCII', () => {
  assert.deepEqual(paramHeadersFor(SCHEMA, { region: 'Hello', count: 3, note: 'x' }), { 'mcp-param-region': 'Hello', 'mcp-param-count': '3' });
  assert.deepEqual(paramHeadersFor(SCHEMA, { region: 'Zürich' }), { 'mcp-param-region': '=?base64?WsO8cmljaA==?=' });
  assert.deepEqual(paramHeadersFor(SCHEMA, { region: { nested: true } }), {});
});

test('a server accepts matching headers, plain or encoded', () => {
  assert.deepEqual(checkParamHeaders(headerSource({ 'Mcp-Param-Region': '=?base64?SGVsbG8=?=', 'mcp-param-count': '3' }), SCHEMA, { region: 'Hello', count: 3 }), { ok: true });
  assert.deepEqual(checkParamHeaders(headerSource({}), SCHEMA, { note: 'no marked argument' }), { ok: true });
});

test('a server refuses a missing, malformed, differing or orphan header with -32020 naming it', () => {
  const cases: [Record<string, string>, Record<string, unknown>, RegExp][] = [
    [{}, { region: 'Hello' }, /is required/],
    [{ 'mcp-param-region': '=?base64?SGVsbG8?=' }, { region: 'Hello' }, /base64/],
    [{ 'mcp-param-region': 'Héllo' }, { region: 'Héllo' }, /printable ASCII/],
    [{ 'mcp-param-region': 'Goodbye' }, { region: 'Hello' }, /does not match/],
    [{ 'mcp-param-region': 'Hello' }, {}, /no region argument/],
  ];
  for (const [headers, args, message] of cases) {
    const checked = checkParamHeaders(headerSource(headers), SCHEMA, args);
    assert.equal(checked.ok, false, JSON.stringify(headers));
    if (checked.ok) continue;
    assert.equal(checked.error.code, -32020);
    assert.deepEqual(checked.error.data, { header: 'mcp-param-region' });
    assert.match(checked.error.message, message);
  }
});
