/** @module The transport contract the gateway core uses for upstream connections: a JSON-RPC message pipe. */

import { LocalError } from '../../core/errors/local.js';
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcMessage } from '../../protocol/jsonrpc.js';

export interface Transport {
  /** Opens the connection (spawns the process, opens the stream). Rejects if that fails. */
  start(): Promise<void>;
  /**
   * Sends one message. Rejects with a TransportError when it cannot be delivered. `options.headers` are
   * extra HTTP headers for this message (2026-07-28 `Mcp-Param-*`, W3C `traceparent`); transports without headers ignore them.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  close(): Promise<void>;
  /** Tell the transport which protocol revision was negotiated (HTTP transports send it as a header). */
  setProtocolVersion?(version: string): void;
  /**
   * Cancels one request of ours by closing its response stream (2026-07-28 over HTTP: closing the stream is
   * the cancellation). Returns false when this transport cannot (stdio: the caller sends notifications/cancelled).
   */
  abortRequest?(id: JsonRpcId): boolean;
  /** `info.relatedRequestId` names the request of ours whose response stream carried the message, when known. */
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
}

export interface SendOptions {
  headers?: Record<string, string>;
}

/** Where a message came from, as far as the transport can tell. */
export interface MessageInfo {
  /** The id of the request (ours) on whose response stream the message arrived. */
  relatedRequestId?: JsonRpcId;
}

/**
 * Why a send failed; `sessionExpired` means the upstream no longer knows our session (404, or another 4xx
 * that says so). When the upstream answered at all, `status` is its HTTP status and `rpcError` the JSON-RPC
 * error its body carried, if any (what tells a legacy server's refusal from a 2026-07-28 server's).
 */
export class TransportError extends LocalError {
  override readonly code = 'transport-failed';
  readonly sessionExpired: boolean;
  readonly status: number | undefined;
  readonly rpcError: JsonRpcErrorObject | undefined;
  constructor(message: string, options: { sessionExpired?: boolean; cause?: unknown; status?: number; rpcError?: JsonRpcErrorObject } = {}) {
    super(message, { cause: options.cause });
    this.name = 'TransportError';
    this.sessionExpired = options.sessionExpired ?? false;
    this.status = options.status;
    this.rpcError = options.rpcError;
  }
}

/** What an upstream session is opened for: serving host requests, or a short probe (startup health, `check`). */
export type TransportPurpose = 'session' | 'probe';
