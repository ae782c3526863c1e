/** @module e2e/harness/recording-transport: wraps an SDK client Transport and records every JSON-RPC message each way. */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

import type { WireEntry } from './raw-host.js';
import type { WireMessage } from './sse-reader.js';

type Inner = Transport & { terminateSession?: () => Promise<void> };

export class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** Every message, host side: `host->gateway` was sent, `gateway->host` was received. */
  readonly wire: WireEntry[] = [];
  readonly #inner: Inner;

  constructor(inner: Inner) {
    this.#inner = inner;
    inner.onmessage = (message, extra) => {
      this.wire.push({ direction: 'gateway->host', message: structuredClone(message) as WireMessage });
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.#inner.hasPerRequestStream;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.wire.push({ direction: 'host->gateway', message: structuredClone(message) as WireMessage });
    return this.#inner.send(message, options);
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  async terminateSession(): Promise<void> {
    await this.#inner.terminateSession?.();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
