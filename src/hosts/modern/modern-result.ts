/** @module What a 2026-07-28 host's results carry that a legacy host's do not: resultType, cache hints, the gateway's identity. */

import { isCacheableMethod, NO_CACHE, withCacheHints } from '../../protocol/cache-hints.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { SERVER_INFO_META } from '../../protocol/meta-keys.js';

/**
 * A result for a modern host: `resultType` kept when it is `input_required`, else `complete`; cache
 * hints on the cacheable methods: `ttlMs: 0, cacheScope: private`, because a merged list changes when
 * any upstream's does and may differ per principal (upstream sessions are per principal); the gateway's serverInfo
 * in `_meta`. The input is not changed.
 */
export function modernResult(method: string, result: JsonObject, serverInfo: JsonObject): JsonObject {
  const meta = isObject(result._meta) ? result._meta : {};
  const out: JsonObject = { ...result, _meta: { ...meta, [SERVER_INFO_META]: serverInfo } };
  if (result.resultType === 'input_required') return out;
  out.resultType = 'complete';
  return isCacheableMethod(method) ? withCacheHints(out, NO_CACHE) : out;
}
