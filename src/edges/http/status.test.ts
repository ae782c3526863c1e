/** @module Pins every cell of the HTTP edge's error table. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { errorResponse, HTTP_ERROR_TABLE, httpStatusFor, rpcCodeFor, toJsonRpcError } from './status.js';
import type { HttpErrorCode } from './status.js';

const EXPECTED: Record<HttpErrorCode, [status: number, rpcCode: number]> = {
  PARSE_ERROR: [400, -32700],
  JSON_TOO_DEEP: [400, -32600],
  INVALID_MESSAGE: [400, -32600],
  INVALID_INITIALIZE_PARAMS: [400, -32602],
  BATCH_NOT_SUPPORTED: [400, -32600],
  SESSION_ID_REQUIRED: [400, -32600],
  ALREADY_INITIALIZED: [400, -32600],
  SESSION_NOT_FOUND: [404, -32001],
  UNSUPPORTED_PROTOCOL_VERSION: [400, -32600],
  UNKNOWN_RESPONSE_ID: [400, -32600],
  INVALID_ANSWER: [400, -32602],
  UNKNOWN_EVENT_ID: [400, -32600],
  STREAM_CONFLICT: [409, -32600],
  FORBIDDEN_HOST: [403, -32600],
  FORBIDDEN_ORIGIN: [403, -32600],
  NOT_ACCEPTABLE: [406, -32600],
  BODY_TOO_LARGE: [413, -32600],
  UNSUPPORTED_MEDIA_TYPE: [415, -32600],
  NOT_FOUND: [404, -32600],
  METHOD_NOT_ALLOWED: [405, -32600],
  CLUSTER_UNAUTHORIZED: [401, -32600],
  HOST_UNAUTHORIZED: [401, -32600],
  HOST_AUTH_MALFORMED: [400, -32600],
  INSUFFICIENT_SCOPE: [403, -32600],
  AUTH_UNAVAILABLE: [503, -32603],
  UNAVAILABLE: [503, -32603],
  INTERNAL: [500, -32603],
};

describe('HTTP error table', () => {
  it('lists exactly the pinned codes', () => {
    assert.deepEqual(Object.keys(HTTP_ERROR_TABLE).sort(), Object.keys(EXPECTED).sort());
  });

  for (const [code, [status, rpcCode]] of Object.entries(EXPECTED) as [HttpErrorCode, [number, number]][]) {
    it(`maps ${code} to HTTP ${status} and JSON-RPC ${rpcCode}`, () => {
      assert.equal(httpStatusFor(code), status);
      assert.equal(rpcCodeFor(code), rpcCode);
    });
  }

  it('builds a JSON-RPC error body with the id, or null', () => {
    assert.deepEqual(toJsonRpcError('UNKNOWN_RESPONSE_ID', 'nope', 'srv-9'), {
      jsonrpc: '2.0',
      id: 'srv-9',
      error: { code: -32600, message: 'nope' },
    });
    assert.equal(toJsonRpcError('PARSE_ERROR', 'bad').id, null);
  });

  it('builds a response with the table status, JSON content type and extra headers', async () => {
    const response = errorResponse('METHOD_NOT_ALLOWED', 'Method Not Allowed', { headers: { allow: 'GET' } });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('allow'), 'GET');
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Method Not Allowed' } });
  });
});
