/** @module Tests of how an upstream session reports a transport that cannot deliver (auth problems keep their own codes), and of its key. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { httpUpstreamSpec } from '../config/testing/upstream-spec.js';
import { CountingIds } from '../core/clock.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { Transport } from './transport/transport.js';
import { TransportError } from './transport/transport.js';
import { UpstreamAuthError } from './transport/upstream-auth-error.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import { silentLogger } from '../core/log.js';
import { UpstreamSession } from './session.js';

const SPEC = httpUpstreamSpec();

/** A transport whose every send fails as the Streamable HTTP transport fails: a TransportError wrapping the cause. */
function failingTransport(cause: Error): Transport {
  return {
    start: async () => undefined,
    send: async (_message: JsonRpcMessage) => {
      throw new TransportError(`upstream 'remote': ${cause.message}`, { cause });
    },
    close: async () => undefined,
  };
}

async function connectError(cause: Error): Promise<GatewayError> {
  const session = new UpstreamSession(SPEC, failingTransport(cause), { onRequest() {}, onNotification() {}, onClose() {} }, silentLogger);
  const error = await session.connect({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }).then(
    () => assert.fail('connect should fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof GatewayError, String(error));
  return error;
}

test('an authorization that needs a person is GW_ERR_UPSTREAM_AUTH_REQUIRED, with the message that names the URL (its query values redacted)', async () => {
  const error = await connectError(new UpstreamAuthError('needs-person', 'sign in at https://as.example/authorize?x=1', { authorizationUrl: 'https://as.example/authorize?x=1' }));
  assert.equal(error.code, 'GW_ERR_UPSTREAM_AUTH_REQUIRED');
  assert.equal(error.message, 'sign in at https://as.example/authorize?x=***');
  assert.deepEqual(error.toProtocolError().toJson().data, { reason: 'GW_ERR_UPSTREAM_AUTH_REQUIRED' });
});

test('an upstream asking for authorization without an auth block is GW_ERR_UPSTREAM_AUTH_REQUIRED too', async () => {
  assert.equal((await connectError(new UpstreamAuthError('not-configured', 'add auth'))).code, 'GW_ERR_UPSTREAM_AUTH_REQUIRED');
});

test('a failed OAuth exchange is GW_ERR_UPSTREAM_AUTH_FAILED; any other transport failure stays GW_ERR_UPSTREAM_UNAVAILABLE', async () => {
  assert.equal((await connectError(new UpstreamAuthError('failed', 'token endpoint said invalid_client'))).code, 'GW_ERR_UPSTREAM_AUTH_FAILED');
  const other = await connectError(new Error('connect ECONNREFUSED'));
  assert.equal(other.code, 'GW_ERR_UPSTREAM_UNAVAILABLE');
  assert.match(other.message, /ECONNREFUSED/);
});

test('a session key is numbered by the IdSource it is given: the sessions of one source never share a key', () => {
  const handlers = { onRequest() {}, onNotification() {}, onClose() {} };
  const ids = new CountingIds();
  const keys = [1, 2].map(() => new UpstreamSession(SPEC, failingTransport(new Error('x')), handlers, silentLogger, { ids }).key);
  assert.deepEqual(keys, [`${SPEC.name}#1`, `${SPEC.name}#2`]);
  // Without a source a session counts alone (no process-wide counter).
  assert.equal(new UpstreamSession(SPEC, failingTransport(new Error('x')), handlers, silentLogger).key, `${SPEC.name}#1`);
});
