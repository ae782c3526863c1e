/** @module Tests of the combined modern request check: which failure wins, and its HTTP status. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { headerSource } from './header-source.js';
import { checkModernRequest } from './modern-request-check.js';

const V = 'io.modelcontextprotocol/protocolVersion';
const C = 'io.modelcontextprotocol/clientCapabilities';
const call = (meta: unknown) => ({ method: 'tools/call', params: { name: 'restart_service', _meta: meta } });
const HEADERS = (version: string) => headerSource({ 'mcp-protocol-version': version, 'mcp-method': 'tools/call', 'mcp-name': 'restart_service' });

test('the first failing check decides the error and the status', () => {
  const cases: [string, ReturnType<typeof call>, ReturnType<typeof headerSource> | undefined, number | 'ok'][] = [
    ['a good request over HTTP', call({ [V]: '2026-07-28', [C]: {} }), HEADERS('2026-07-28'), 'ok'],
    ['a good request over stdio', call({ [V]: '2026-07-28', [C]: {} }), undefined, 'ok'],
    ['headers fail before the envelope is read', call({ [V]: '2026-07-28' }), headerSource({ 'mcp-protocol-version': '2026-07-28' }), -32020],
    ['an unserved version, header equal to it', call({ [V]: '2030-01-01', [C]: {} }), HEADERS('2030-01-01'), -32022],
    ['an unserved version over stdio', call({ [V]: '2025-11-25', [C]: {} }), undefined, -32022],
    ['no capabilities', call({ [V]: '2026-07-28' }), HEADERS('2026-07-28'), -32602],
    ['no envelope, header only', { method: 'tools/call', params: { name: 'restart_service' } } as ReturnType<typeof call>, HEADERS('2026-07-28'), -32602],
  ];
  for (const [name, message, headers, expected] of cases) {
    const check = checkModernRequest(message, headers);
    if (expected === 'ok') {
      assert.deepEqual(check, { ok: true, envelope: { protocolVersion: '2026-07-28', clientCapabilities: {} } }, name);
      continue;
    }
    assert.equal(check.ok, false, name);
    if (check.ok) continue;
    assert.equal(check.error.code, expected, name);
    assert.equal(check.httpStatus, 400, name);
  }
  const narrowed = checkModernRequest(call({ [V]: '2030-01-01', [C]: {} }), undefined, ['2026-07-28']);
  assert.deepEqual(!narrowed.ok && narrowed.error.data, { supported: ['2026-07-28'], requested: '2030-01-01' });
});
