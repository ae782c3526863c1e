/** @module Tests of the 2026-07-28 error builders and the HTTP status each JSON-RPC code takes. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { headerMismatchError, invalidParamsError, missingCapabilityError, modernHttpStatus, unsupportedVersionError } from './modern-errors.js';

test('each builder gives its code and the data the spec requires', () => {
  assert.deepEqual(headerMismatchError('mcp-name', 'no'), { code: -32020, message: 'no', data: { header: 'mcp-name' } });
  const missing = missingCapabilityError({ elicitation: { url: {} } });
  assert.equal(missing.code, -32021);
  assert.deepEqual(missing.data, { requiredCapabilities: { elicitation: { url: {} } } });
  const supported = ['2026-07-28'];
  const unsupported = unsupportedVersionError('2030-01-01', supported);
  assert.deepEqual(unsupported, { code: -32022, message: 'Unsupported protocol version: 2030-01-01', data: { supported: ['2026-07-28'], requested: '2030-01-01' } });
  assert.notEqual((unsupported.data as { supported: string[] }).supported, supported, 'the list is copied');
  assert.deepEqual(invalidParamsError('_meta', 'x'), { code: -32602, message: 'x', data: { field: '_meta' } });
});

test('HTTP status per code: 400 for request faults, 404 for an unknown method, 200 otherwise', () => {
  const cases: [number, number][] = [
    [-32020, 400],
    [-32021, 400],
    [-32022, 400],
    [-32602, 400],
    [-32600, 400],
    [-32700, 400],
    [-32601, 404],
    [-32603, 200],
    [-32042, 200],
    [-1, 200],
  ];
  for (const [code, status] of cases) assert.equal(modernHttpStatus(code), status, String(code));
});
