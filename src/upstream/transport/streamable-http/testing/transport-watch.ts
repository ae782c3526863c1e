/** @module What transport tests watch: every message a transport delivers, and waiting a bounded time for a condition. */

import assert from 'node:assert/strict';
import type { JsonRpcMessage } from '../../../../protocol/jsonrpc.js';
import type { MessageInfo } from '../../transport.js';
import type { StreamableHttpClientTransport } from '../client-transport.js';

/** One delivered message and what the transport said about it. */
export interface Delivered {
  message: JsonRpcMessage;
  info?: MessageInfo;
}

/** Takes over `transport.onmessage` and returns the list it appends each delivered message to. */
export function collect(transport: StreamableHttpClientTransport): Delivered[] {
  const seen: Delivered[] = [];
  transport.onmessage = (message, info) => seen.push({ message, info });
  return seen;
}

/** Polls `check` every 5 ms for up to about a second, and fails the test if it never holds. */
export async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), 'condition not reached');
}
