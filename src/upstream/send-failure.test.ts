/** @module What a failed send becomes: an expired session as it is, unencodable params, an auth problem, or an unavailable upstream. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TransportError } from './transport/transport.js';
import { UpstreamAuthError } from './transport/upstream-auth-error.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import { sendFailure } from './send-failure.js';

function code(error: Error): string {
  assert.ok(error instanceof GatewayError, `${error.name} is no GatewayError`);
  return error.code;
}

test('an expired session is passed on as it is', () => {
  const expired = new TransportError('404', { sessionExpired: true });
  assert.equal(sendFailure(expired, 'u'), expired);
});

test("params that overflow JSON encoding are the caller's fault", () => {
  const error = sendFailure(new Error('send failed', { cause: new RangeError('Maximum call stack size exceeded') }), 'u');
  assert.equal(code(error), 'GW_ERR_INVALID_PARAMS');
  assert.match(error.message, /upstream 'u' cannot be encoded as JSON/);
  assert.equal(code(sendFailure(new RangeError('deep'), 'u')), 'GW_ERR_INVALID_PARAMS');
});

test('an auth problem anywhere in the causes names the auth failure', () => {
  assert.equal(code(sendFailure(new TransportError('401', { cause: new UpstreamAuthError('failed', 'token refused') }), 'u')), 'GW_ERR_UPSTREAM_AUTH_FAILED');
  const required = sendFailure(new UpstreamAuthError('needs-person', 'sign in first'), 'u');
  assert.equal(code(required), 'GW_ERR_UPSTREAM_AUTH_REQUIRED');
  assert.equal(required.message, 'sign in first');
});

test('anything else: the upstream is unavailable, with the cause kept', () => {
  const cause = new TransportError('ECONNREFUSED');
  const error = sendFailure(cause, 'u');
  assert.equal(code(error), 'GW_ERR_UPSTREAM_UNAVAILABLE');
  assert.equal(error.message, "upstream 'u' is unavailable: ECONNREFUSED");
  assert.equal(error.cause, cause);
  assert.equal(sendFailure('broken pipe', 'u').message, "upstream 'u' is unavailable: broken pipe");
});
