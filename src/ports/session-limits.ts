/** @module The one count of host sessions (sessionful HTTP, legacy /sse, 2026-07-28 stand-ins) and its caps: the least recently used idle session makes room, else a refusal. */

/** The kinds of host session that are counted (stdio hosts are one per process and are not). */
export type SessionKind = 'streamable-http' | 'sse' | 'stand-in';

/** What the count needs to know of a session to close it for room. */
export interface LimitedSession {
  readonly kind: SessionKind;
  /** Who holds it (see `http/modern-principal.ts`): each principal has its own cap. */
  readonly principal: string;
  /** Whether it may be closed to make room: nothing in flight, no stream held open. */
  isIdle(): boolean;
  /** Closes it to make room (its slot is already released). */
  evict(): void;
}

export interface SessionCaps {
  /** Most sessions of every kind together. */
  maxSessions: number;
  /** Most sessions of one principal. */
  maxSessionsPerPrincipal: number;
  /** Most stand-ins. */
  maxStandIns: number;
}

/** Where the count, evictions and refusals are shown (the metrics). */
export interface SessionLimitEvents {
  /** A session was counted (admitted) or left the count (released or evicted). */
  counted?(kind: SessionKind, delta: 1 | -1): void;
  evicted?(kind: SessionKind): void;
  refused?(kind: SessionKind): void;
}

/** A counted session's place; releasing it twice is harmless. */
export interface SessionSlot {
  /** The session was used: it becomes the most recently used. */
  touch(): void;
  release(): void;
}

/** How long a refused host is told to wait (`Retry-After`, seconds). */
export const SESSION_RETRY_AFTER_SECONDS = 5;

export class SessionLimits {
  /** The caps in force: a reload replaces them (sessions over a lowered cap stay; new ones wait for room). */
  caps: SessionCaps;
  readonly #events: SessionLimitEvents;
  // Each set is in order of use, least recently used first (a use moves a session to the end).
  readonly #all = new Set<LimitedSession>();
  readonly #byPrincipal = new Map<string, Set<LimitedSession>>();
  readonly #standIns = new Set<LimitedSession>();

  constructor(caps: SessionCaps, events: SessionLimitEvents = {}) {
    this.caps = caps;
    this.#events = events;
  }

  /** Sessions counted now. */
  get open(): number {
    return this.#all.size;
  }

  /**
   * Counts `session` once every cap it falls under has room, closing the least recently used idle session of a full
   * scope (stand-ins, its principal's, all) to make it; undefined when a full scope has none idle (the caller refuses).
   */
  admit(session: LimitedSession): SessionSlot | undefined {
    for (;;) {
      const full = this.#fullScope(session);
      if (full === undefined) break;
      const victim = leastRecentlyUsedIdle(full);
      if (victim === undefined) {
        this.#events.refused?.(session.kind);
        return undefined;
      }
      this.#remove(victim);
      this.#events.evicted?.(victim.kind);
      victim.evict();
    }
    this.#all.add(session);
    const mine = this.#byPrincipal.get(session.principal) ?? new Set<LimitedSession>();
    mine.add(session);
    this.#byPrincipal.set(session.principal, mine);
    if (session.kind === 'stand-in') this.#standIns.add(session);
    this.#events.counted?.(session.kind, 1);
    return { touch: () => this.#touch(session), release: () => this.#remove(session) };
  }

  #touch(session: LimitedSession): void {
    if (!this.#all.has(session)) return;
    for (const scope of this.#scopesOf(session)) {
      scope.delete(session);
      scope.add(session);
    }
  }

  #scopesOf(session: LimitedSession): Set<LimitedSession>[] {
    const scopes = [this.#all];
    const mine = this.#byPrincipal.get(session.principal);
    if (mine !== undefined) scopes.push(mine);
    if (session.kind === 'stand-in') scopes.push(this.#standIns);
    return scopes;
  }

  #fullScope(session: LimitedSession): ReadonlySet<LimitedSession> | undefined {
    if (session.kind === 'stand-in' && this.#standIns.size >= this.caps.maxStandIns) return this.#standIns;
    const mine = this.#byPrincipal.get(session.principal);
    if (mine !== undefined && mine.size >= this.caps.maxSessionsPerPrincipal) return mine;
    if (this.#all.size >= this.caps.maxSessions) return this.#all;
    return undefined;
  }

  #remove(session: LimitedSession): void {
    if (!this.#all.delete(session)) return;
    this.#standIns.delete(session);
    const mine = this.#byPrincipal.get(session.principal);
    mine?.delete(session);
    if (mine?.size === 0) this.#byPrincipal.delete(session.principal);
    this.#events.counted?.(session.kind, -1);
  }
}

function leastRecentlyUsedIdle(scope: ReadonlySet<LimitedSession>): LimitedSession | undefined {
  for (const session of scope) if (session.isIdle()) return session;
  return undefined;
}
