/** @module Wraps an SDK client transport as our Transport: SDK types stay here, failures become TransportErrors. */

import type { Transport as SdkTransport } from '@modelcontextprotocol/client';

import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { Transport } from '../transport.js';
import { TransportError } from '../transport.js';

export class SdkTransportAdapter implements Transport {
  onmessage?: (message: JsonRpcMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  #inner: SdkTransport & { setProtocolVersion?: (version: string) => void };
  #label: string;

  constructor(inner: SdkTransport, label: string) {
    this.#inner = inner;
    this.#label = label;
    inner.onmessage = (message) => this.onmessage?.(message as unknown as JsonRpcMessage);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  async start(): Promise<void> {
    try {
      await this.#inner.start();
    } catch (error) {
      throw new TransportError(`${this.#label}: ${describe(error)}`, { cause: error });
    }
  }

  async send(message: JsonRpcMessage): Promise<void> {
    try {
      await this.#inner.send(message as never);
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      throw new TransportError(`${this.#label}: ${describe(error)}`, { sessionExpired: status === 404, cause: error });
    }
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    await this.#inner.close();
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message !== error.message ? `${error.message} (${cause.message})` : error.message;
}
