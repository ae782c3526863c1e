/** @module The one table that maps HTTP-edge error codes to an HTTP status and a JSON-RPC code, and the error bodies built from it. */

import { SESSION_RETRY_AFTER_SECONDS } from '../../ports/session-limits.js';
import { RpcCode } from '../../protocol/errors.js';
import type { JsonRpcErrorResponse, JsonRpcId } from '../../protocol/jsonrpc.js';

interface ErrorCell {
  /** HTTP status of the response. */
  readonly status: number;
  /** `error.code` in the JSON-RPC body. */
  readonly rpcCode: number;
}

/**
 * Every error the HTTP edge answers by itself. Codes are stable names (never sent raw);
 * the test `status.test.ts` pins every cell.
 */
export const HTTP_ERROR_TABLE = {
  /** The body is not JSON (or not UTF-8). */
  PARSE_ERROR: { status: 400, rpcCode: RpcCode.ParseError },
  /** JSON nested deeper than `http.maxJsonDepth`. */
  JSON_TOO_DEEP: { status: 400, rpcCode: RpcCode.InvalidRequest },
  /** JSON, but not a JSON-RPC request, notification or response. */
  INVALID_MESSAGE: { status: 400, rpcCode: RpcCode.InvalidRequest },
  /** An `initialize` whose params lack protocolVersion, capabilities or clientInfo. */
  INVALID_INITIALIZE_PARAMS: { status: 400, rpcCode: RpcCode.InvalidParams },
  /** A JSON array on a session whose revision has no batches (only 2025-03-26 sessions take them). */
  BATCH_NOT_SUPPORTED: { status: 400, rpcCode: RpcCode.InvalidRequest },
  /** A non-initialize request without `Mcp-Session-Id`. */
  SESSION_ID_REQUIRED: { status: 400, rpcCode: RpcCode.InvalidRequest },
  /** An `initialize` that carries `Mcp-Session-Id`. */
  ALREADY_INITIALIZED: { status: 400, rpcCode: RpcCode.InvalidRequest },
  /** `Mcp-Session-Id` names no live session (never existed, deleted, timed out). */
  SESSION_NOT_FOUND: { status: 404, rpcCode: RpcCode.SessionNotFound },
  /** `MCP-Protocol-Version` is not a revision of the sessionful era. */
  UNSUPPORTED_PROTOCOL_VERSION: { status: 400, rpcCode: RpcCode.InvalidRequest },
  /** A JSON-RPC response whose id the session does not await. */
  UNKNOWN_RESPONSE_ID: { status: 400, rpcCode: RpcCode.InvalidRequest },
  /** A host's answer that breaks the limits or the schema its question was asked with (the question is settled). */
  INVALID_ANSWER: { status: 400, rpcCode: RpcCode.InvalidParams },
  /** `Last-Event-ID` names no stream the session remembers (never issued, or forgotten). */
  UNKNOWN_EVENT_ID: { status: 400, rpcCode: RpcCode.InvalidRequest },
  /** A second GET stream, or a resumption of a stream the host already holds open. */
  STREAM_CONFLICT: { status: 409, rpcCode: RpcCode.InvalidRequest },
  /** `Host` is neither loopback nor in `http.allowedHosts` (DNS-rebinding protection). */
  FORBIDDEN_HOST: { status: 403, rpcCode: RpcCode.InvalidRequest },
  /** `Origin` is neither loopback nor in `http.allowedOrigins`. */
  FORBIDDEN_ORIGIN: { status: 403, rpcCode: RpcCode.InvalidRequest },
  /** `Accept` lacks what the method needs. */
  NOT_ACCEPTABLE: { status: 406, rpcCode: RpcCode.InvalidRequest },
  /** The body is larger than `http.maxBodyBytes`. */
  BODY_TOO_LARGE: { status: 413, rpcCode: RpcCode.InvalidRequest },
  /** `Content-Type` is not application/json. */
  UNSUPPORTED_MEDIA_TYPE: { status: 415, rpcCode: RpcCode.InvalidRequest },
  /** No such path. */
  NOT_FOUND: { status: 404, rpcCode: RpcCode.InvalidRequest },
  /** The path exists, the method does not (answered with `Allow`). */
  METHOD_NOT_ALLOWED: { status: 405, rpcCode: RpcCode.InvalidRequest },
  /** A request carrying a cluster signature that does not verify (design 013): never served, whatever it asks. */
  CLUSTER_UNAUTHORIZED: { status: 401, rpcCode: RpcCode.InvalidRequest },
  /** A host request without valid credentials when hosts authenticate (`auth.hosts`): with `WWW-Authenticate` naming the resource metadata. */
  HOST_UNAUTHORIZED: { status: 401, rpcCode: RpcCode.InvalidRequest },
  /** A malformed `Authorization` header (not one `Bearer <token>`), RFC 6750 invalid_request. */
  HOST_AUTH_MALFORMED: { status: 400, rpcCode: RpcCode.InvalidRequest },
  /** A valid token without the scopes `auth.hosts.scopes` requires (RFC 6750 insufficient_scope: step up). */
  INSUFFICIENT_SCOPE: { status: 403, rpcCode: RpcCode.InvalidRequest },
  /** The token's issuer (its keys, its introspection endpoint) cannot be reached now: retry, do not re-authenticate. */
  AUTH_UNAVAILABLE: { status: 503, rpcCode: RpcCode.InternalError },
  /** The edge is shutting down, the gateway refused a new session, or the instance owning a session cannot be reached now. */
  UNAVAILABLE: { status: 503, rpcCode: RpcCode.InternalError },
  /** A bug on our side. */
  INTERNAL: { status: 500, rpcCode: RpcCode.InternalError },
} as const satisfies Record<string, ErrorCell>;

export type HttpErrorCode = keyof typeof HTTP_ERROR_TABLE;

export function httpStatusFor(code: HttpErrorCode): number {
  return HTTP_ERROR_TABLE[code].status;
}

export function rpcCodeFor(code: HttpErrorCode): number {
  return HTTP_ERROR_TABLE[code].rpcCode;
}

/** The JSON-RPC error body for an edge error. */
export function toJsonRpcError(code: HttpErrorCode, message: string, id: JsonRpcId | null = null): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: { code: rpcCodeFor(code), message } };
}

/** A complete HTTP error response: table status, JSON-RPC body, `content-type: application/json`. */
export function errorResponse(
  code: HttpErrorCode,
  message: string,
  options: { id?: JsonRpcId | null; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(toJsonRpcError(code, message, options.id ?? null)), {
    status: httpStatusFor(code),
    headers: { 'content-type': 'application/json', ...options.headers },
  });
}

/** 503 with `Retry-After`: a host-session cap (`http.maxSessions`, `maxSessionsPerPrincipal`) is reached and no session is idle. */
export function sessionLimitResponse(id: JsonRpcId | null = null): Response {
  const message = 'Service Unavailable: the gateway holds as many host sessions as its limits allow and none is idle; retry later';
  return errorResponse('UNAVAILABLE', message, { id, headers: { 'retry-after': String(SESSION_RETRY_AFTER_SECONDS) } });
}

/** A request that reuses the id of one still in flight on its session: refused, so that each answer has one owner. */
export function idInFlightResponse(id: JsonRpcId): Response {
  return errorResponse('INVALID_MESSAGE', `Invalid Request: id ${JSON.stringify(id)} is already in flight on this session`, { id });
}
