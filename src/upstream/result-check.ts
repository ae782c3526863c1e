/** @module Whether a 2026-07-28 upstream's result can be used: its `resultType` is known and allowed for the request it answers. */

import { mayRequireInput } from '../protocol/input-required.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { readResultType } from '../protocol/result-type.js';

/**
 * Why a 2026-07-28 result to `method` cannot be used: an unknown `resultType`, or `input_required` answering
 * a request that may not get one; undefined if it can. An absent `resultType` is read as `complete` (lenient:
 * the spec requires it, but nothing is gained by refusing an otherwise good result).
 */
export function modernResultProblem(method: string, result: JsonObject): string | undefined {
  const read = readResultType(result, result.resultType === undefined ? 'legacy' : 'modern');
  if (!read.ok) return read.reason;
  if (read.type === 'input_required' && !mayRequireInput(method)) return `${method} may not be answered with input_required`;
  return undefined;
}
