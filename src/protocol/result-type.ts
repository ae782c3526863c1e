/** @module `resultType` on results: reading it per era, stamping it for a modern host, removing the 2026-only result fields for a legacy host. */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import type { Era } from './revisions.js';

/** The result types this gateway understands (the Tasks extension's `task` is not one of them). */
export type ResultType = 'complete' | 'input_required';

export type ResultTypeRead = { ok: true; type: ResultType } | { ok: false; reason: string };

/**
 * The type of a result from a server of `era`. `complete` and `input_required` are themselves; any
 * other value (an extension's `task` included) is invalid. An absent `resultType` is `complete` from
 * a legacy server and invalid from a modern one, which must always send it.
 */
export function readResultType(result: unknown, era: Era): ResultTypeRead {
  if (!isObject(result)) return { ok: false, reason: 'a result must be an object' };
  if (!Object.hasOwn(result, 'resultType') || result.resultType === undefined) {
    return era === 'legacy' ? { ok: true, type: 'complete' } : { ok: false, reason: 'a 2026-07-28 result must carry resultType' };
  }
  const type = result.resultType;
  if (type === 'complete' || type === 'input_required') return { ok: true, type };
  return { ok: false, reason: `unknown resultType ${JSON.stringify(type)}` };
}

/** A copy of a result with `resultType: "complete"`, for a modern host (a legacy upstream's results lack it). */
export function withCompleteResultType(result: JsonObject): JsonObject {
  return { ...result, resultType: 'complete' };
}

/** The result fields only 2026-07-28 defines, removed before a result reaches a legacy host. */
export const MODERN_ONLY_RESULT_FIELDS = ['resultType', 'ttlMs', 'cacheScope'] as const;

/** A copy of a complete result without `resultType`, `ttlMs` and `cacheScope` (the input is not changed). */
export function withoutModernResultFields(result: JsonObject): JsonObject {
  const out: JsonObject = { ...result };
  for (const field of MODERN_ONLY_RESULT_FIELDS) delete out[field];
  return out;
}
