/** @module 2026-07-28 `subscriptions/listen`: the filter a host asks for, what the server acknowledges, and the messages of a listen stream. */

import type { JsonObject, JsonRpcId, JsonRpcNotification } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import { SUBSCRIPTION_ID_META } from './meta-keys.js';

/** Which notifications a listen stream carries; each is opt-in. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  /** `notifications/resources/updated` for these URIs (replaces resources/subscribe). */
  resourceSubscriptions?: string[];
}

const FLAGS = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const;

export type ListenParse = { ok: true; filter: SubscriptionFilter } | { ok: false; reason: string };

/**
 * Reads `params.notifications` of a listen request: required, an object; the three flags booleans
 * when present; `resourceSubscriptions` a list of strings (duplicates dropped). Keys this revision
 * does not define are ignored. Never throws.
 */
export function parseListenParams(params: unknown): ListenParse {
  const requested = isObject(params) ? params.notifications : undefined;
  if (!isObject(requested)) return { ok: false, reason: 'subscriptions/listen needs params.notifications (an object)' };
  const filter: SubscriptionFilter = {};
  for (const flag of FLAGS) {
    const value = requested[flag];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') return { ok: false, reason: `notifications.${flag} must be a boolean` };
    filter[flag] = value;
  }
  const uris = requested.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((uri): uri is string => typeof uri === 'string')) {
      return { ok: false, reason: 'notifications.resourceSubscriptions must be a list of URIs' };
    }
    filter.resourceSubscriptions = [...new Set(uris)];
  }
  return { ok: true, filter };
}

/** What the server can deliver: from its capabilities (listChanged per list, `resources.subscribe` for updates). */
export interface ListenOffer {
  tools: boolean;
  prompts: boolean;
  resources: boolean;
  resourceUpdates: boolean;
}

/** The offer that follows from server capabilities. */
export function listenOfferOf(capabilities: unknown): ListenOffer {
  const caps = isObject(capabilities) ? capabilities : {};
  const listChanged = (key: string): boolean => isObject(caps[key]) && caps[key].listChanged === true;
  return {
    tools: listChanged('tools'),
    prompts: listChanged('prompts'),
    resources: listChanged('resources'),
    resourceUpdates: isObject(caps.resources) && caps.resources.subscribe === true,
  };
}

/** The subset of the requested filter the server honours: only what was asked (true) and can be delivered. */
export function acknowledgedFilter(requested: SubscriptionFilter, offer: ListenOffer): SubscriptionFilter {
  const out: SubscriptionFilter = {};
  if (requested.toolsListChanged === true && offer.tools) out.toolsListChanged = true;
  if (requested.promptsListChanged === true && offer.prompts) out.promptsListChanged = true;
  if (requested.resourcesListChanged === true && offer.resources) out.resourcesListChanged = true;
  if (requested.resourceSubscriptions !== undefined && requested.resourceSubscriptions.length > 0 && offer.resourceUpdates) {
    out.resourceSubscriptions = [...requested.resourceSubscriptions];
  }
  return out;
}

/** The first message of a listen stream. */
export function subscriptionsAcknowledged(subscriptionId: JsonRpcId, filter: SubscriptionFilter): JsonRpcNotification {
  return {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { ...filter }, _meta: { [SUBSCRIPTION_ID_META]: subscriptionId } },
  };
}

/** Whether a notification passes an acknowledged filter (list changes by flag, resource updates by URI). */
export function filterAdmits(filter: SubscriptionFilter, notification: { method: string; params?: JsonObject }): boolean {
  switch (notification.method) {
    case 'notifications/tools/list_changed':
      return filter.toolsListChanged === true;
    case 'notifications/prompts/list_changed':
      return filter.promptsListChanged === true;
    case 'notifications/resources/list_changed':
      return filter.resourcesListChanged === true;
    case 'notifications/resources/updated': {
      const uri = notification.params?.uri;
      return typeof uri === 'string' && (filter.resourceSubscriptions ?? []).includes(uri);
    }
    default:
      return false;
  }
}

/** A copy of a notification tagged for one listen stream (its other `_meta` kept). */
export function onListenStream(notification: { method: string; params?: JsonObject }, subscriptionId: JsonRpcId): JsonRpcNotification {
  const params = notification.params ?? {};
  const meta = isObject(params._meta) ? params._meta : {};
  return { jsonrpc: '2.0', method: notification.method, params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID_META]: subscriptionId } } };
}

/** The result that ends a listen stream gracefully (sent as the response to the listen request). */
export function listenEndResult(subscriptionId: JsonRpcId): JsonObject {
  return { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META]: subscriptionId } };
}
