/** @module Whose failure a failed upstream connect is: the upstream's own (spawn, crash, timeout, refused connection) or the host's input. */

import { ProtocolError } from '../protocol/errors.js';
import type { GatewayErrorCodeValue } from '../protocol/gateway-errors.js';
import { GatewayError } from '../protocol/gateway-errors.js';

/** The gateway errors that say the upstream itself failed. */
const UPSTREAM_FAILURES: ReadonlySet<GatewayErrorCodeValue> = new Set([
  'GW_ERR_UPSTREAM_UNAVAILABLE',
  'GW_ERR_UPSTREAM_CLOSED',
  'GW_ERR_UPSTREAM_TIMEOUT',
  'GW_ERR_UPSTREAM_AUTH_REQUIRED',
  'GW_ERR_UPSTREAM_AUTH_FAILED',
]);

/**
 * Whether connecting with a host's initialize params failed because of the upstream. An upstream that
 * answered with a JSON-RPC error is up (it refused what this host sent); a gateway error about the
 * request (invalid params, a closed host session) is the host's; anything else (a process that would not
 * start, a transport error) is the upstream's.
 */
export function isUpstreamsOwnFailure(error: unknown): boolean {
  if (error instanceof ProtocolError) return false;
  if (error instanceof GatewayError) return UPSTREAM_FAILURES.has(error.code);
  return true;
}
