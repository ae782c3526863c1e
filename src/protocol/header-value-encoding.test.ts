/** @module Tests of the `=?base64?…?=` header value form: when it is used, round trips, and strict decoding. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { decodeHeaderValue, encodeHeaderValue, isPlainHeaderValue } from './header-value-encoding.js';

test('plain ASCII travels as it is; anything else is encoded', () => {
  const cases: [string, string][] = [
    ['restart_service', 'restart_service'],
    ['desk_restart-service.v2', 'desk_restart-service.v2'],
    ['file:///var/log/app%20x.log', 'file:///var/log/app%20x.log'],
    ['https://example.com/r?id=123&x=y', 'https://example.com/r?id=123&x=y'],
    ['two words', 'two words'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    ['héllo', '=?base64?aMOpbGxv?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['tab\there', '=?base64?dGFiCWhlcmU=?='],
    ['', '=?base64??='],
    ['=?base64?aGk=?=', '=?base64?PT9iYXNlNjQ/YUdrPT89?='],
    ['=?BASE64?aGk=?=', '=?base64?PT9CQVNFNjQ/YUdrPT89?='],
    ['=?base64?', '=?base64?PT9iYXNlNjQ/?='],
    ['del\u007f', '=?base64?ZGVsfw==?='],
  ];
  for (const [value, header] of cases) {
    assert.equal(encodeHeaderValue(value), header, JSON.stringify(value));
    assert.deepEqual(decodeHeaderValue(header), { ok: true, value }, `round trip of ${JSON.stringify(value)}`);
  }
  assert.equal(isPlainHeaderValue('=?base6'), true, 'a prefix of the marker alone is plain');
});

test('every string survives the round trip, lone surrogates aside', () => {
  const samples = ['\ufeffbom first', '😀 emoji', 'ümlaut', '\u0000nul', 'a'.repeat(5000), '日本語のツール', '"quoted"', '\\'];
  for (const value of samples) assert.deepEqual(decodeHeaderValue(encodeHeaderValue(value)), { ok: true, value }, JSON.stringify(value).slice(0, 40));
  for (let code = 0; code < 0x800; code++) {
    const value = `x${String.fromCharCode(code)}y`;
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const decoded = decodeHeaderValue(encodeHeaderValue(value));
    assert.ok(decoded.ok && decoded.value === value, `U+${code.toString(16)}`);
  }
});

test('malformed header values are refused, never thrown', () => {
  const bad = [
    '=?base64?%%%?=',
    '=?base64?aGk?=',
    '=?base64?aGj=?=',
    '=?base64?aG k=?=',
    '=?base64?aGk=\n?=',
    '=?base64?_-8=?=',
    '=?base64?/w==?=',
    '=?base64?7aCA?=',
    '=?base64?=?=',
    'caf\u00e9',
    'line1\nline2',
    'ok\u0000',
  ];
  for (const raw of bad) {
    const decoded = decodeHeaderValue(raw);
    assert.equal(decoded.ok, false, JSON.stringify(raw));
    assert.ok(!decoded.ok && decoded.reason.length > 0);
  }
  assert.deepEqual(decodeHeaderValue('=?BASE64?aGk=?='), { ok: true, value: '=?BASE64?aGk=?=' }, 'only the exact marker encodes; other cases are literal');
  assert.deepEqual(decodeHeaderValue('=?base64?aGk='), { ok: true, value: '=?base64?aGk=' }, 'without the closing ?= it is a literal (SEP-2243)');
});
