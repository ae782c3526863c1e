/**
 * @module Size and depth limits for elicitation traffic ("Validation on every path").
 *
 * Pure: no I/O. A request whose `requestedSchema` breaks a limit must never reach the host (the
 * caller answers the upstream with a JSON-RPC error carrying the reason); an answer whose
 * `content` breaks a limit must never reach the upstream (the host gets the reason).
 *
 * Bytes are the UTF-8 length of `JSON.stringify(value)`. Depth counts object/array nesting
 * levels: a scalar is depth 0, `{a: 1}` and `[1]` are depth 1, `{a: {b: 1}}` is depth 2.
 */

import type { JsonObject } from '../protocol/jsonrpc.js';

export const ELICITATION_LIMITS = {
  schemaBytes: 100 * 1024,
  schemaDepth: 10,
  answerBytes: 1024 * 1024,
  answerDepth: 10,
} as const;

/**
 * Returns true when `value` nests objects/arrays more than `limit` levels deep.
 * Iterative and stops at the first level past the limit, so a cyclic or pathologically deep
 * value cannot blow the stack or loop forever.
 */
export function exceedsDepth(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, parentDepth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    const depth = parentDepth + 1;
    if (depth > limit) return true;
    const children: unknown[] = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth]);
    }
  }
  return false;
}

const UTF8 = new TextEncoder();

/** UTF-8 byte length of the JSON text of `value`, or undefined if it cannot be serialized. */
export function jsonByteLength(value: unknown): number | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : UTF8.encode(text).length;
  } catch {
    return undefined;
  }
}

function checkLimits(name: string, value: unknown, maxBytes: number, maxDepth: number): string | undefined {
  // Depth first: it is bounded and cycle-safe, and it guards JSON.stringify below.
  if (exceedsDepth(value, maxDepth)) return `${name} is nested deeper than the ${maxDepth}-level limit`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return `${name} is not serializable as JSON`;
  }
  // UTF-8 takes at most three bytes per UTF-16 code unit: a text this short is within `maxBytes` without encoding it.
  if (text === undefined || text.length * 3 <= maxBytes) return undefined;
  const bytes = UTF8.encode(text).length;
  if (bytes > maxBytes) return `${name} is ${bytes} bytes, over the ${maxBytes}-byte limit`;
  return undefined;
}

/**
 * Checks the params of an `elicitation/create` request (or an MRTR input request's params).
 * Returns a reason naming the broken limit, or undefined. No `requestedSchema` (URL mode) passes.
 */
export function checkRequestLimits(params: JsonObject): string | undefined {
  if (params.requestedSchema === undefined) return undefined;
  return checkLimits('requestedSchema', params.requestedSchema, ELICITATION_LIMITS.schemaBytes, ELICITATION_LIMITS.schemaDepth);
}

/**
 * Checks the `content` of an elicitation result. Returns a reason naming the broken limit, or
 * undefined. A result without `content` (decline, cancel, URL-mode accept) passes.
 */
export function checkAnswerLimits(result: JsonObject): string | undefined {
  if (result.content === undefined) return undefined;
  return checkLimits('content', result.content, ELICITATION_LIMITS.answerBytes, ELICITATION_LIMITS.answerDepth);
}
