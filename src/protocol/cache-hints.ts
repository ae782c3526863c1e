/** @module 2026-07-28 cache hints (`ttlMs`, `cacheScope`): which results carry them, reading, stamping and merging them. */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';

/** Complete results of these methods MUST carry `ttlMs` and `cacheScope`. */
export const CACHEABLE_METHODS = ['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'] as const;
export type CacheableMethod = (typeof CACHEABLE_METHODS)[number];

/** `public`: shareable across users and gateways; `private`: reuse only within one authorization context. */
export type CacheScope = 'public' | 'private';

export interface CacheHints {
  ttlMs: number;
  cacheScope: CacheScope;
}

/** What a gateway says when it knows nothing better (as the SDK does): stale at once, never shared. */
export const NO_CACHE: CacheHints = { ttlMs: 0, cacheScope: 'private' };

export function isCacheableMethod(method: string): method is CacheableMethod {
  return (CACHEABLE_METHODS as readonly string[]).includes(method);
}

export type CacheHintsRead = { ok: true; hints: CacheHints } | { ok: false; reason: string };

/**
 * The hints of a received result. An absent `ttlMs` is 0 (the spec's client rule) and an absent
 * `cacheScope` is `private` (the safe reading); present values must be a non-negative safe integer
 * and `public` or `private`. Never throws.
 */
export function readCacheHints(result: unknown): CacheHintsRead {
  if (!isObject(result)) return { ok: false, reason: 'a result must be an object' };
  const ttlMs = result.ttlMs === undefined ? 0 : result.ttlMs;
  const cacheScope = result.cacheScope === undefined ? 'private' : result.cacheScope;
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 0) return { ok: false, reason: 'ttlMs must be an integer ≥ 0' };
  if (cacheScope !== 'public' && cacheScope !== 'private') return { ok: false, reason: 'cacheScope must be public or private' };
  return { ok: true, hints: { ttlMs, cacheScope } };
}

/** A copy of a result with these hints (replacing any it had). */
export function withCacheHints(result: JsonObject, hints: CacheHints): JsonObject {
  return { ...result, ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
}

/**
 * The hints of a result merged from several sources (a list built from every upstream): the
 * shortest time to live, and `private` if any part is private. Nothing to merge gives {@link NO_CACHE}.
 */
export function mergeCacheHints(parts: Iterable<CacheHints>): CacheHints {
  let ttlMs = Number.POSITIVE_INFINITY;
  let cacheScope: CacheScope = 'public';
  let any = false;
  for (const part of parts) {
    any = true;
    ttlMs = Math.min(ttlMs, part.ttlMs);
    if (part.cacheScope === 'private') cacheScope = 'private';
  }
  return any ? { ttlMs, cacheScope } : NO_CACHE;
}
