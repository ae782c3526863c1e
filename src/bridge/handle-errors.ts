/** @module The JSON-RPC error a host gets for a refused request-state handle, one row per reason. */

import { GatewayErrorCode } from '../protocol/gateway-errors.js';
import { RpcCode } from '../protocol/errors.js';
import type { JsonRpcErrorObject } from '../protocol/jsonrpc.js';
import type { HandleFailure } from './request-state.js';

/**
 * Every reason a retry's `requestState` can be refused: the handle's own failures, a replay, a full
 * ledger, and (for the wiring) a parked call that is gone (its deadline passed, its upstream went
 * away, the gateway restarted).
 */
export type HandleRejection = HandleFailure | 'replayed' | 'ledger-full' | 'gone';

const MESSAGES: Record<HandleRejection, string> = {
  malformed: 'requestState is not a request state this gateway issued',
  'unknown-version': 'requestState has a format this gateway does not know',
  'bad-mac': 'requestState failed its integrity check',
  expired: 'requestState has expired',
  'wrong-principal': 'requestState was issued to another principal',
  'wrong-upstream': 'requestState belongs to a call on another upstream',
  'wrong-method': 'requestState belongs to another method',
  'wrong-params': 'requestState belongs to a request with other params',
  replayed: 'requestState has already been used',
  gone: 'the call this requestState continues no longer exists',
  'ledger-full': 'the gateway cannot take this retry now',
};

/**
 * The error for a refused handle. Refusals of the handle are -32602 (invalid params, HTTP 400 for a
 * modern host): `requestState` is a parameter, and the spec's own precedent for an invalid or expired
 * opaque token (a cursor) is -32602; -32020…-32099 are reserved for the spec and -32000…-32019 are
 * discouraged for new code. `data.failure` says which check failed; in every case the host should
 * start the request again without `requestState` and `inputResponses`. A full ledger is the gateway's
 * problem, not the request's: -32603, and the same retry may succeed later.
 */
export function requestStateError(reason: HandleRejection): JsonRpcErrorObject {
  if (reason === 'ledger-full') {
    return { code: RpcCode.InternalError, message: `${MESSAGES[reason]}; retry later`, data: { reason: GatewayErrorCode.GW_ERR_REQUEST_STATE_BUSY, failure: reason } };
  }
  return {
    code: RpcCode.InvalidParams,
    message: `${MESSAGES[reason]}; send the request again without requestState`,
    data: { reason: GatewayErrorCode.GW_ERR_REQUEST_STATE_REJECTED, failure: reason },
  };
}
