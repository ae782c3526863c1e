/** @module Two in-memory transports wired to each other, for tests (messages are cloned, delivery is async). */

import type { JsonRpcMessage } from '../../../protocol/jsonrpc.js';
import type { Transport } from '../transport.js';

class MemoryTransport implements Transport {
  onmessage?: (message: JsonRpcMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  peer: MemoryTransport | undefined;
  #closed = false;

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed || !this.peer) throw new Error('memory transport is closed');
    const copy = structuredClone(message);
    const peer = this.peer;
    queueMicrotask(() => peer.onmessage?.(copy));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
    await this.peer?.close();
  }
}

export function createLinkedPair(): [Transport, Transport] {
  const a = new MemoryTransport();
  const b = new MemoryTransport();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
