/** @module A tools/call result, a progress notification and a JSON-RPC error as terminal text (text content plain, other content summarised). */

import type { JsonObject, JsonRpcErrorObject } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { contentSummary } from '../content-summary.js';
import { safeText } from '../terminal-text.js';

/** The result's content, one block per line (text as is), or its structuredContent as JSON when it has no content. */
export function toolResultText(result: JsonObject): string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (blocks.length === 0) {
    if (result.structuredContent !== undefined) return `${safeText(JSON.stringify(result.structuredContent, null, 2))}\n`;
    return '';
  }
  return blocks.map((block) => `${safeText(contentSummary(block))}\n`).join('');
}

/** Whether the tool reported an error (`isError: true`). */
export function isToolError(result: JsonObject): boolean {
  return result.isError === true;
}

/** `progress 3/10: copying` from notifications/progress params (a percentage when the total is known). */
export function progressLine(params: JsonObject): string {
  const progress = typeof params.progress === 'number' ? params.progress : undefined;
  const total = typeof params.total === 'number' ? params.total : undefined;
  const amount = progress === undefined ? '' : total === undefined ? ` ${progress}` : ` ${progress}/${total} (${Math.round((progress / total) * 100)}%)`;
  const message = typeof params.message === 'string' && params.message !== '' ? `: ${params.message}` : '';
  return safeText(`progress${amount}${message}`);
}

/** `[warning] desk: disk almost full` from notifications/message params. */
export function logLine(params: JsonObject): string {
  const level = typeof params.level === 'string' ? params.level : 'info';
  const logger = typeof params.logger === 'string' ? `${params.logger}: ` : '';
  const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
  return safeText(`[${level}] ${logger}${data}`);
}

/** A JSON-RPC error with the gateway's catalogue reason when it gives one: `GW_ERR_UNKNOWN_TOOL (-32602): Unknown tool: x`. */
export function rpcErrorText(error: JsonRpcErrorObject): string {
  const reason = isObject(error.data) && typeof error.data.reason === 'string' ? `${error.data.reason} ` : '';
  return safeText(`${reason}(${error.code}): ${error.message}`);
}
