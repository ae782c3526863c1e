/** @module e2e/harness/tool-results: reading tools/call results and lists out of raw JSON-RPC messages. */
import assert from 'node:assert/strict';

import type { WireMessage } from './sse-reader.js';

interface ContentBlock {
  type: string;
  text?: string;
}

/** The result of a response message; fails the test (showing the message) if it is an error response. */
export function resultOf(message: WireMessage | undefined): Record<string, unknown> {
  assert.ok(message?.result, `expected a result, got ${JSON.stringify(message)}`);
  return message.result;
}

/** The text blocks of a tools/call result, joined with newlines. */
export function toolText(message: WireMessage | undefined): string {
  const content = (resultOf(message).content ?? []) as ContentBlock[];
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

export function isToolError(message: WireMessage | undefined): boolean {
  return resultOf(message).isError === true;
}

/** The tool names in a tools/list response. */
export function toolNames(message: WireMessage | undefined): string[] {
  return ((resultOf(message).tools ?? []) as { name: string }[]).map((tool) => tool.name);
}

/** `{"pid":N}` from a lab `whoami` result. */
export function pidOf(message: WireMessage | undefined): number {
  const pid = (JSON.parse(toolText(message)) as { pid?: unknown }).pid;
  assert.equal(typeof pid, 'number', `whoami gave ${toolText(message)}`);
  return pid as number;
}

/** Whether `message` is a JSON-RPC request (method and id). */
export function isRequest(message: WireMessage): boolean {
  return message.method !== undefined && message.id !== undefined;
}

/** Whether `message` answers request `id` (result or error). */
export function answers(id: WireMessage['id']) {
  return (message: WireMessage): boolean => message.id === id && message.method === undefined;
}
