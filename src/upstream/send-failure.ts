/** @module What a failure to send a request to an upstream means for its caller, as the error its promise rejects with. */

import { TransportError } from './transport/transport.js';
import { findUpstreamAuthError } from './transport/upstream-auth-error.js';
import { GatewayError } from '../protocol/gateway-errors.js';

/**
 * The error a request to upstream `upstreamName` rejects with when the transport could not send it: an
 * expired session as it is, params that cannot be encoded as JSON, the upstream's
 * authorization problem, or else the upstream is unavailable.
 */
export function sendFailure(error: unknown, upstreamName: string): Error {
  if (error instanceof TransportError && error.sessionExpired) return error;
  // JSON.stringify overflowed the stack on the message: its params are at fault, not the upstream.
  if (error instanceof RangeError || (error instanceof Error && error.cause instanceof RangeError)) {
    return new GatewayError('GW_ERR_INVALID_PARAMS', `Invalid params: the request to upstream '${upstreamName}' cannot be encoded as JSON`, { cause: error });
  }
  const auth = findUpstreamAuthError(error);
  if (auth) {
    const code = auth.problem === 'failed' ? 'GW_ERR_UPSTREAM_AUTH_FAILED' : 'GW_ERR_UPSTREAM_AUTH_REQUIRED';
    return new GatewayError(code, auth.message, { cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${upstreamName}' is unavailable: ${detail}`, { cause: error });
}
