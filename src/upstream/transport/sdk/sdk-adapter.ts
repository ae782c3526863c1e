/** @module Wraps an SDK client transport as our Transport: SDK types stay here, failures become TransportErrors. */

import type { Transport as SdkTransport } from '@modelcontextprotocol/client';

import type { JsonRpcMessage } from '../../../protocol/jsonrpc.js';
import type { Transport } from '../transport.js';
import { TransportError } from '../transport.js';

/** Told when the inner transport has started and when it has closed (for a stdio upstream: its process ended). */
export interface AdapterLifecycle {
  started?(): void;
  closed?(): void;
}

export class SdkTransportAdapter implements Transport {
  onmessage?: (message: JsonRpcMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  #inner: SdkTransport & { setProtocolVersion?: (version: string) => void };
  #label: string;

  #lifecycle: AdapterLifecycle;

  constructor(inner: SdkTransport, label: string, lifecycle: AdapterLifecycle = {}) {
    this.#inner = inner;
    this.#label = label;
    this.#lifecycle = lifecycle;
    inner.onmessage = (message) => this.onmessage?.(message as unknown as JsonRpcMessage);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      lifecycle.closed?.();
      this.onclose?.();
    };
  }

  async start(): Promise<void> {
    try {
      await this.#inner.start();
    } catch (error) {
      throw new TransportError(`${this.#label}: ${describe(error)}`, { cause: error });
    }
    this.#lifecycle.started?.();
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
