/** @module The transport contract the gateway core uses for upstream connections: a JSON-RPC message pipe. */

import type { JsonRpcId, JsonRpcMessage } from '../protocol/jsonrpc.js';

export interface Transport {
  /** Opens the connection (spawns the process, opens the stream). Rejects if that fails. */
  start(): Promise<void>;
  /** Sends one message. Rejects with a TransportError when it cannot be delivered. */
  send(message: JsonRpcMessage): Promise<void>;
  close(): Promise<void>;
  /** Tell the transport which protocol revision was negotiated (HTTP transports send it as a header). */
  setProtocolVersion?(version: string): void;
  /** `info.relatedRequestId` names the request of ours whose response stream carried the message, when known. */
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
}

/** Where a message came from, as far as the transport can tell. */
export interface MessageInfo {
  /** The id of the request (ours) on whose response stream the message arrived. */
  relatedRequestId?: JsonRpcId;
}

/** Why a send failed; `sessionExpired` means the upstream answered 404 for our session. */
export class TransportError extends Error {
  readonly sessionExpired: boolean;
  constructor(message: string, options: { sessionExpired?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'TransportError';
    this.sessionExpired = options.sessionExpired ?? false;
  }
}

/** What an upstream session is opened for: serving host requests, or a short probe (startup health, `check`). */
export type TransportPurpose = 'session' | 'probe';
