/** @module What a host session tells the upstream sessions opened for it alone (per-session links): its log level, that its roots changed. */

import type { Logger } from '../core/log.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { UpstreamLink } from '../upstream/link.js';

/** logging/setLevel to each per-session upstream that logs; a failure is logged, never the host's error. */
export async function setLevelOnUpstreams(links: readonly UpstreamLink[], level: string, logger: Logger): Promise<void> {
  await Promise.all(
    links
      .filter((link) => link.spec.sharing === 'per-session')
      .map(async (link) => {
        const session = link.current();
        // A 2026-07-28 upstream has no logging/setLevel: the level travels in each request's envelope.
        if (!session || session.era === 'modern' || !isObject(session.serverCapabilities.logging)) return;
        await session.request('logging/setLevel', { level }).catch((error: unknown) => {
          logger.log('warn', `logging/setLevel failed on upstream '${link.spec.name}'`, { error: String(error) });
        });
      }),
  );
}

/** notifications/roots/list_changed to each open per-session upstream of the legacy era. */
export function rootsChangedOnUpstreams(links: readonly UpstreamLink[]): void {
  for (const link of links) {
    const session = link.current();
    // 2026-07-28 has no such notification: a modern upstream asks for roots each time it needs them.
    if (link.spec.sharing !== 'per-session' || session?.era === 'modern') continue;
    void session?.notify('notifications/roots/list_changed').catch(() => undefined);
  }
}
