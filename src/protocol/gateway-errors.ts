/**
 * @module The one catalogue of gateway codes (GW_ERR_*): the name a peer finds in `error.data.reason`, each mapped
 * to a JSON-RPC code of the wire catalogue (protocol/errors.ts). Names are never reused; docs/errors.md lists
 * exactly these, and a test checks that each one is raised somewhere.
 */

import { ProtocolError, RpcCode } from './errors.js';
import { redactUrlsIn } from './redact-url.js';

export const GatewayErrorCode = {
  GW_ERR_UPSTREAM_UNAVAILABLE: 'GW_ERR_UPSTREAM_UNAVAILABLE',
  GW_ERR_UPSTREAM_CLOSED: 'GW_ERR_UPSTREAM_CLOSED',
  GW_ERR_UPSTREAM_TIMEOUT: 'GW_ERR_UPSTREAM_TIMEOUT',
  GW_ERR_UNKNOWN_TOOL: 'GW_ERR_UNKNOWN_TOOL',
  GW_ERR_UNKNOWN_PROMPT: 'GW_ERR_UNKNOWN_PROMPT',
  GW_ERR_UNKNOWN_RESOURCE: 'GW_ERR_UNKNOWN_RESOURCE',
  GW_ERR_BAD_CURSOR: 'GW_ERR_BAD_CURSOR',
  GW_ERR_NOT_INITIALIZED: 'GW_ERR_NOT_INITIALIZED',
  GW_ERR_ALREADY_INITIALIZED: 'GW_ERR_ALREADY_INITIALIZED',
  GW_ERR_METHOD_NOT_FOUND: 'GW_ERR_METHOD_NOT_FOUND',
  GW_ERR_INVALID_PARAMS: 'GW_ERR_INVALID_PARAMS',
  GW_ERR_HOST_LACKS_CAPABILITY: 'GW_ERR_HOST_LACKS_CAPABILITY',
  GW_ERR_QUESTION_UNATTRIBUTABLE: 'GW_ERR_QUESTION_UNATTRIBUTABLE',
  GW_ERR_HOST_UNREACHABLE: 'GW_ERR_HOST_UNREACHABLE',
  GW_ERR_INVALID_ANSWER: 'GW_ERR_INVALID_ANSWER',
  GW_ERR_REQUEST_CANCELLED: 'GW_ERR_REQUEST_CANCELLED',
  GW_ERR_SESSION_CLOSED: 'GW_ERR_SESSION_CLOSED',
  GW_ERR_UPSTREAM_AUTH_REQUIRED: 'GW_ERR_UPSTREAM_AUTH_REQUIRED',
  GW_ERR_UPSTREAM_AUTH_FAILED: 'GW_ERR_UPSTREAM_AUTH_FAILED',
  GW_ERR_UPSTREAM_INVALID_RESULT: 'GW_ERR_UPSTREAM_INVALID_RESULT',
  GW_ERR_INPUT_REQUIRED_FAILED: 'GW_ERR_INPUT_REQUIRED_FAILED',
  GW_ERR_REQUEST_STATE_REJECTED: 'GW_ERR_REQUEST_STATE_REJECTED',
  GW_ERR_REQUEST_STATE_BUSY: 'GW_ERR_REQUEST_STATE_BUSY',
  GW_ERR_HOST_LIMIT: 'GW_ERR_HOST_LIMIT',
  GW_ERR_UNKNOWN_TASK: 'GW_ERR_UNKNOWN_TASK',
  GW_ERR_FORBIDDEN: 'GW_ERR_FORBIDDEN',
} as const;

export type GatewayErrorCodeValue = keyof typeof GatewayErrorCode;

/** The JSON-RPC code each gateway error becomes on the wire. */
export const RPC_CODE_FOR: Record<GatewayErrorCodeValue, number> = {
  GW_ERR_UPSTREAM_UNAVAILABLE: RpcCode.UpstreamUnavailable,
  GW_ERR_UPSTREAM_CLOSED: RpcCode.UpstreamUnavailable,
  GW_ERR_UPSTREAM_TIMEOUT: RpcCode.UpstreamUnavailable,
  GW_ERR_UNKNOWN_TOOL: RpcCode.InvalidParams,
  GW_ERR_UNKNOWN_PROMPT: RpcCode.InvalidParams,
  GW_ERR_UNKNOWN_RESOURCE: RpcCode.ResourceNotFound,
  GW_ERR_BAD_CURSOR: RpcCode.InvalidParams,
  GW_ERR_NOT_INITIALIZED: RpcCode.InvalidRequest,
  GW_ERR_ALREADY_INITIALIZED: RpcCode.InvalidRequest,
  GW_ERR_METHOD_NOT_FOUND: RpcCode.MethodNotFound,
  GW_ERR_INVALID_PARAMS: RpcCode.InvalidParams,
  GW_ERR_HOST_LACKS_CAPABILITY: RpcCode.MethodNotFound,
  GW_ERR_QUESTION_UNATTRIBUTABLE: RpcCode.InternalError,
  GW_ERR_HOST_UNREACHABLE: RpcCode.InternalError,
  GW_ERR_INVALID_ANSWER: RpcCode.InvalidParams,
  GW_ERR_REQUEST_CANCELLED: RpcCode.RequestCancelled,
  GW_ERR_SESSION_CLOSED: RpcCode.InternalError,
  GW_ERR_UPSTREAM_AUTH_REQUIRED: RpcCode.UpstreamUnavailable,
  GW_ERR_UPSTREAM_AUTH_FAILED: RpcCode.UpstreamUnavailable,
  GW_ERR_UPSTREAM_INVALID_RESULT: RpcCode.InternalError,
  GW_ERR_INPUT_REQUIRED_FAILED: RpcCode.InternalError,
  // Built by bridge/handle-errors.ts (requestStateError), which names them in data.reason.
  GW_ERR_REQUEST_STATE_REJECTED: RpcCode.InvalidParams,
  GW_ERR_REQUEST_STATE_BUSY: RpcCode.InternalError,
  GW_ERR_HOST_LIMIT: RpcCode.InternalError,
  GW_ERR_UNKNOWN_TASK: RpcCode.InvalidParams,
  // The access policy refused the principal this tool, resource or prompt (router/access-gate.ts).
  GW_ERR_FORBIDDEN: RpcCode.InternalError,
};

/**
 * A gateway failure; `toProtocolError()` gives what the peer sees (the code name is kept in data). Its message is
 * logged, recorded and relayed, so any URL in it (an upstream's, inside a fetch error) has its credentials redacted.
 */
export class GatewayError extends Error {
  readonly code: GatewayErrorCodeValue;

  constructor(code: GatewayErrorCodeValue, message: string, options?: { cause?: unknown }) {
    super(redactUrlsIn(message), options);
    this.name = 'GatewayError';
    this.code = code;
  }

  toProtocolError(): ProtocolError {
    return new ProtocolError(RPC_CODE_FOR[this.code], this.message, { reason: this.code }, { cause: this });
  }
}

/** Any thrown value as the JSON-RPC error a peer should see. */
export function toProtocolError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof GatewayError) return error.toProtocolError();
  const message = redactUrlsIn(error instanceof Error ? error.message : String(error));
  return new ProtocolError(RpcCode.InternalError, `Internal error: ${message}`, undefined, { cause: error });
}
