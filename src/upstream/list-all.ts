/** @module Every page of one list (tools, prompts, resources, resource templates) from one upstream session, cached on the session as its era allows. */

import { readCacheHints } from '../protocol/cache-hints.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { UpstreamSession } from './session.js';

export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

export const LIST_METHOD: Record<ListKind, string> = {
  tools: 'tools/list',
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
};

/** The server capability that says an upstream offers a list. */
export const LIST_CAPABILITY: Record<ListKind, string> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resources',
};

/** The cached lists each list_changed notification makes stale. */
export const LIST_CACHE_KEYS: Readonly<Record<string, readonly ListKind[]>> = {
  'notifications/tools/list_changed': ['tools'],
  'notifications/prompts/list_changed': ['prompts'],
  'notifications/resources/list_changed': ['resources', 'resourceTemplates'],
};

/** Upper bound on pages fetched from one upstream for one list (guards against cursor loops). */
export const MAX_PAGES = 1000;

/** The longest a timer can wait (Node fires longer ones at once). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Fetches every page of a list from one upstream session, cached on the session: until list_changed for a
 * legacy upstream; for as long as every page's `ttlMs` allows for a 2026-07-28 one (which sends no
 * list_changed without a subscription; 0 or a missing hint means the next list asks again).
 */
export function fetchAll(session: UpstreamSession, kind: ListKind): Promise<JsonObject[]> {
  const cached = session.listCache.get(kind);
  if (cached) return cached;
  let ttlMs = session.era === 'modern' ? MAX_TIMER_MS : Number.POSITIVE_INFINITY;
  const loading = (async () => {
    const items: JsonObject[] = [];
    let cursor: unknown;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result = await session.request(LIST_METHOD[kind], cursor === undefined ? undefined : { cursor });
      if (session.era === 'modern') {
        const hints = readCacheHints(result);
        ttlMs = Math.min(ttlMs, hints.ok ? hints.hints.ttlMs : 0);
      }
      const batch = result[kind];
      if (Array.isArray(batch)) items.push(...batch.filter(isObject));
      cursor = result.nextCursor;
      if (typeof cursor !== 'string' || cursor === '') break;
    }
    return items;
  })();
  session.listCache.set(kind, loading);
  const forget = () => {
    if (session.listCache.get(kind) === loading) session.listCache.delete(kind);
  };
  loading.then(
    () => {
      if (ttlMs === Number.POSITIVE_INFINITY) return;
      if (ttlMs <= 0) forget();
      else setTimeout(forget, ttlMs).unref();
    },
    forget,
  );
  return loading;
}
