/** @module The `notify` section normalized: durations in ms, and every target named (its URL's host, numbered when two share one). */

import type { ParsedNotifyTarget } from './sections/notify.js';
import type { NotifyTarget } from './types.js';

/** The targets in file order, each with a unique name: given names are kept, the others take their host's. */
export function normalizeNotify(targets: readonly ParsedNotifyTarget[]): NotifyTarget[] {
  const taken = new Set(targets.flatMap((target) => (target.name === undefined ? [] : [target.name])));
  return targets.map((target) => {
    const name = target.name ?? freeName(new URL(target.url).hostname.replace(/^\[|\]$/g, '') || 'webhook', taken);
    taken.add(name);
    return {
      name,
      url: target.url,
      format: target.format,
      headers: { ...target.headers },
      ...(target.secret === undefined ? {} : { secret: target.secret }),
      events: [...target.events],
      ...(target.upstreams === undefined ? {} : { upstreams: [...target.upstreams] }),
      ...(target.tools === undefined ? {} : { tools: [...target.tools] }),
      timeoutMs: target.timeout,
      attempts: target.attempts,
    };
  });
}

/** `base`, else `base-2`, `base-3`… whichever is not taken yet. */
function freeName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
