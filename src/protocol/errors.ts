/** @module The one catalogue of JSON-RPC error codes that cross the wire, and the ProtocolError that carries one. */

import type { JsonRpcErrorObject } from './jsonrpc.js';

/**
 * Every numeric JSON-RPC code the gateway sends or recognises, declared here and nowhere else; docs/errors.md
 * lists each with what it means and whether it is sent, recognised or both (a test checks both against the code).
 * Builders of error objects live with their rules; they take the numbers from here.
 */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy revisions: resource not found. */
  ResourceNotFound: -32002,
  /** 2025-11-25: URL-mode elicitation required (an upstream's, relayed to the host unchanged). */
  UrlElicitationRequired: -32042,
  /**
   * Streamable HTTP (2025 era): `Mcp-Session-Id` names no live session (HTTP 404), as the 2025-era SDK servers
   * send it and their clients expect it. This number means nothing else here.
   */
  SessionNotFound: -32001,
  /** Gateway-defined: the upstream cannot answer (crashed, unreachable, backing off, closed, timed out, not authorized). */
  UpstreamUnavailable: -32000,
  /** The request was cancelled before it completed (sent so an HTTP stream can end). */
  RequestCancelled: -32800,
  /** 2026-07-28: an HTTP header is missing, malformed or disagrees with the body (HTTP 400). */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability it did not declare; `data.requiredCapabilities` (HTTP 400). */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the request's protocol version is not served; `data.supported`, `data.requested` (HTTP 400). */
  UnsupportedProtocolVersion: -32022,
  /** Up to 2025-11-25: the user rejected the request (the spec's example code for a refused sampling request). */
  UserRejected: -1,
} as const;

/** An error that is sent to a JSON-RPC peer as is. */
export class ProtocolError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProtocolError';
    this.code = code;
    this.data = data;
  }

  toJson(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static from(error: JsonRpcErrorObject): ProtocolError {
    return new ProtocolError(error.code, error.message, error.data);
  }
}
