/** @module A 2026-07-28 upstream's `subscriptions/listen` stream: opened for the list changes its capabilities say happen, for the session's lifetime. */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { Era } from '../protocol/revisions.js';
import type { Logger } from '../core/log.js';

/** What of an upstream session a listen stream needs (the session itself). */
export interface ListenTarget {
  readonly key: string;
  readonly era: Era;
  readonly closed: boolean;
  readonly serverCapabilities: JsonObject;
  request(method: string, params: JsonObject | undefined, options: { timeoutMs: number }): Promise<JsonObject>;
}

/** The `notifications` params of a listen request for the lists `capabilities` mark `listChanged`; undefined if none changes. */
export function listenNotifications(capabilities: JsonObject): JsonObject | undefined {
  const changes = (key: string): boolean => isObject(capabilities[key]) && capabilities[key].listChanged === true;
  const notifications: JsonObject = {};
  if (changes('tools')) notifications.toolsListChanged = true;
  if (changes('prompts')) notifications.promptsListChanged = true;
  if (changes('resources')) notifications.resourcesListChanged = true;
  return Object.keys(notifications).length === 0 ? undefined : notifications;
}

/**
 * 2026-07-28 has no unsolicited notifications: an upstream's list changes travel on a `subscriptions/listen`
 * stream. This opens one on a modern, open session for the lists the upstream says change (`listChanged`);
 * what it carries reaches the session's handlers like a legacy upstream's notifications. It has no timeout;
 * if the upstream ends it, it is not reopened (the lists' `ttlMs` still bounds how stale they get).
 */
export function openListenStream(session: ListenTarget, logger: Logger): void {
  if (session.era !== 'modern' || session.closed) return;
  const notifications = listenNotifications(session.serverCapabilities);
  if (!notifications) return;
  session.request('subscriptions/listen', { notifications }, { timeoutMs: 0 }).then(
    () => logger.log('debug', `upstream ${session.key}: the upstream ended its listen stream`),
    (error: unknown) => {
      if (!session.closed) logger.log('info', `upstream ${session.key}: no listen stream for list changes`, { error: String(error) });
    },
  );
}
