/** @module JSON-RPC error codes that cross the wire, and the ProtocolError that carries one. */

import type { JsonRpcErrorObject } from './jsonrpc.js';

/** Numeric JSON-RPC codes used by MCP; the catalogue is mirrored in docs/errors.md. */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy revisions: resource not found. */
  ResourceNotFound: -32002,
  /** 2025-11-25: URL-mode elicitation required. */
  UrlElicitationRequired: -32042,
  /** Gateway-defined (implementation range): the request timed out upstream. */
  RequestTimeout: -32001,
  /** Gateway-defined: the upstream is unavailable (crashed, unreachable, backing off). */
  UpstreamUnavailable: -32000,
  /** The request was cancelled before it completed (sent so an HTTP stream can end). */
  RequestCancelled: -32800,
  /** 2026-07-28: an HTTP header is missing, malformed or disagrees with the body (HTTP 400). */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability it did not declare; `data.requiredCapabilities` (HTTP 400). */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the request's protocol version is not served; `data.supported`, `data.requested` (HTTP 400). */
  UnsupportedProtocolVersion: -32022,
} as const;

export type RpcCodeValue = (typeof RpcCode)[keyof typeof RpcCode];

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
