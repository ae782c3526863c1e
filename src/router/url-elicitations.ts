/**
 * @module Which host session each URL-mode elicitation went to, so that the upstream's
 * `notifications/elicitation/complete` reaches that session and no other.
 *
 * Keyed by (upstream session, elicitationId): ids are unique per server (mcp-revisions.md §3.5), and a
 * shared upstream session serves many hosts. An entry is made when a URL-mode `elicitation/create` or
 * a `-32042` error naming it is relayed to a host that can take the notification, and goes away when
 * the notification is delivered, when its host session or upstream session ends, when it is older
 * than `ttlMs`, or when a cap evicts it (oldest first: per host, so one host cannot crowd out the
 * others, and in total). Expiry is checked lazily, without timers.
 */

import { systemClock } from '../core/clock.js';
import { upstreamClientCapabilities } from '../protocol/capabilities.js';
import { RpcCode } from '../protocol/errors.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcId } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { revisionAtLeast } from '../protocol/revisions.js';

export interface UrlElicitationLimits {
  /** Entries one host session may hold; registering one more forgets that host's oldest. */
  perHost: number;
  /** Entries in all; registering one more forgets the oldest. */
  total: number;
  /** An entry older than this is forgotten (a sign-in left unfinished for an hour is not coming back). */
  ttlMs: number;
}

export const URL_ELICITATION_LIMITS: UrlElicitationLimits = { perHost: 100, total: 10_000, ttlMs: 60 * 60 * 1000 };

/** Where a completion goes: the host session, and the host request whose stream carried the elicitation (if any). */
export interface UrlElicitationTarget<H> {
  host: H;
  relatedRequestId: JsonRpcId | undefined;
}

interface Entry<H> extends UrlElicitationTarget<H> {
  upstreamKey: string;
  at: number;
}

export class UrlElicitationRegistry<H extends object> {
  readonly #limits: UrlElicitationLimits;
  readonly #now: () => number;
  /** Insertion order is age order: a re-registration is deleted and inserted again. */
  readonly #entries = new Map<string, Entry<H>>();
  readonly #byHost = new Map<H, Set<string>>();

  constructor(limits: UrlElicitationLimits = URL_ELICITATION_LIMITS, now: () => number = systemClock.now) {
    this.#limits = limits;
    this.#now = now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Records that `host` received URL elicitation `elicitationId` of upstream session `upstreamKey` (the latest host wins). */
  register(upstreamKey: string, elicitationId: string, host: H, relatedRequestId?: JsonRpcId): void {
    const key = keyOf(upstreamKey, elicitationId);
    this.#delete(key);
    this.#sweep();
    for (let own = this.#byHost.get(host); own && own.size >= this.#limits.perHost; own = this.#byHost.get(host)) {
      this.#delete(own.values().next().value as string);
    }
    while (this.#entries.size > 0 && this.#entries.size >= this.#limits.total) this.#delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, { host, relatedRequestId, upstreamKey, at: this.#now() });
    const own = this.#byHost.get(host) ?? new Set<string>();
    own.add(key);
    this.#byHost.set(host, own);
  }

  /** Removes and returns where the completion of `elicitationId` goes; undefined when unknown, completed or expired. */
  take(upstreamKey: string, elicitationId: string): UrlElicitationTarget<H> | undefined {
    this.#sweep();
    const key = keyOf(upstreamKey, elicitationId);
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#delete(key);
    return { host: entry.host, relatedRequestId: entry.relatedRequestId };
  }

  /** Forgets every entry of a host session (it closed). */
  dropHost(host: H): void {
    for (const key of [...(this.#byHost.get(host) ?? [])]) this.#delete(key);
    this.#byHost.delete(host);
  }

  /** Forgets every entry of an upstream session (it ended: nothing more can come on it). */
  dropUpstream(upstreamKey: string): void {
    for (const [key, entry] of this.#entries) {
      if (entry.upstreamKey === upstreamKey) this.#delete(key);
    }
  }

  #sweep(): void {
    const oldestAllowed = this.#now() - this.#limits.ttlMs;
    for (const [key, entry] of this.#entries) {
      if (entry.at > oldestAllowed) return;
      this.#delete(key);
    }
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    const own = this.#byHost.get(entry.host);
    own?.delete(key);
    if (own?.size === 0) this.#byHost.delete(entry.host);
  }
}

/** One string per (upstream, id) pair, unambiguous whatever characters either holds. */
function keyOf(upstreamKey: string, elicitationId: string): string {
  return JSON.stringify([upstreamKey, elicitationId]);
}

/**
 * The elicitation ids a -32042 (URL elicitation required) error names, when the host it goes to can take
 * their completion (2025-11-25 and `elicitation.url` declared); none otherwise, or for any other error.
 */
export function requiredUrlElicitationIds(error: JsonRpcErrorObject, host: { protocolVersion: string; capabilities: JsonObject } | undefined): string[] {
  if (error.code !== RpcCode.UrlElicitationRequired || !host || !revisionAtLeast(host.protocolVersion, '2025-11-25')) return [];
  const elicitation = upstreamClientCapabilities(host.capabilities, host.protocolVersion).elicitation;
  if (!isObject(elicitation) || !isObject(elicitation.url)) return [];
  const listed = isObject(error.data) && Array.isArray(error.data.elicitations) ? error.data.elicitations : [];
  return listed.flatMap((item) => (isObject(item) && typeof item.elicitationId === 'string' ? [item.elicitationId] : []));
}
