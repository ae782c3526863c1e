/**
 * @module A lazily opened upstream session for one host session (or for all, when shared): opened on
 * first use, opened again after the upstream crashed or forgot our session, refused while backing off; and, for a
 * host whose concurrent calls must not share one (`oneCallPerSession`), a session of its own for each call in flight;
 * its lists, read from its own session or, before that is open, from a list session shared with other hosts.
 */

import type { UpstreamSpec } from '../config/types.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { ListKind } from './list-all.js';
import { LIST_CAPABILITY, fetchAll } from './list-all.js';
import type { UpstreamSession } from './session.js';
import type { UpstreamStatus } from './status.js';

/** A list session shared with other hosts (list-source.ts), as a link reads it. */
export interface SharedLists {
  session(): Promise<UpstreamSession>;
  current(): UpstreamSession | undefined;
  /** Listens to its list changes until the function returned is called. */
  attach(listener: (method: string) => void): () => void;
}

/** Where a per-session link reads its lists before its own session is open (`lists: shared`). */
export interface ListsFrom {
  /** The shared list session for this host (throws as opening the host's own session would, e.g. not initialized). */
  source(): SharedLists;
  /** Tells the host that a list it was shown from there changed. */
  changed(method: string): void;
}

/** How long an extra session (see forCall) no call holds stays open for the next overlapping call. */
export const EXTRA_LINGER_MS = 60_000;

export class UpstreamLink {
  readonly spec: UpstreamSpec;
  #status: UpstreamStatus;
  #open: () => Promise<UpstreamSession>;
  #session: UpstreamSession | undefined;
  #opening: Promise<UpstreamSession> | undefined;
  #closed = false;
  /** Why the link was closed, when it was for a reason other than its host session ending (see close). */
  #closeReason: string | undefined;
  /** Each call in flight holds its session apart from the others' (see forCall). */
  readonly #oneCallPerSession: boolean;
  /** Sessions opened beside the first for calls in flight at once (kept for the next ones until the link closes). */
  #extra: UpstreamSession[] = [];
  /** How many calls hold each session now. */
  #holds = new Map<UpstreamSession, number>();
  /** An extra session no call holds is closed after this long unused (for stdio: its process ends). */
  readonly #extraLingerMs: number;
  #lingering = new Map<UpstreamSession, NodeJS.Timeout>();
  /** Lists before the link's own session is open come from a shared list session (undefined: from the link's own). */
  readonly #listsFrom: ListsFrom | undefined;
  /** The shared list session this link reads from, once it listed there, and how it stops listening to it. */
  #shared: { lists: SharedLists; detach: () => void } | undefined;

  constructor(
    status: UpstreamStatus,
    open: () => Promise<UpstreamSession>,
    options: { oneCallPerSession?: boolean; extraLingerMs?: number; listsFrom?: ListsFrom } = {},
  ) {
    this.spec = status.spec;
    this.#status = status;
    this.#open = open;
    this.#oneCallPerSession = options.oneCallPerSession === true;
    this.#extraLingerMs = options.extraLingerMs ?? EXTRA_LINGER_MS;
    this.#listsFrom = options.listsFrom;
  }

  /**
   * Every item of one list (none when the upstream offers no such list). From the link's own session when it is open
   * (or lists are per session); else from the shared list session, so listing opens nothing of this host's own.
   */
  async list(kind: ListKind): Promise<JsonObject[]> {
    const session = await this.#listSession();
    if (!isObject(session.serverCapabilities[LIST_CAPABILITY[kind]])) return [];
    return fetchAll(session, kind);
  }

  /** What the upstream offers, as last seen: by this link's own session, its list session, else the upstream's probe. */
  serverCapabilities(): JsonObject | undefined {
    const capabilities = this.current()?.serverCapabilities ?? this.#shared?.lists.current()?.serverCapabilities ?? this.#status.report.capabilities;
    return isObject(capabilities) ? capabilities : undefined;
  }

  #listSession(): Promise<UpstreamSession> {
    // The link's own session when it is open (get() returns it), or when lists are per session (get() opens it).
    if (!this.#listsFrom || this.current()) return this.get();
    if (this.#closed) return Promise.reject(this.#closedError());
    if (!this.#shared) {
      const lists = this.#listsFrom.source();
      this.#shared = { lists, detach: lists.attach(this.#listsFrom.changed) };
    }
    return this.#shared.lists.session();
  }

  /** How many sessions this link has open now (its first one and the extra ones). */
  get openSessions(): number {
    return (this.current() ? 1 : 0) + this.#extra.filter((session) => !session.closed).length;
  }

  /**
   * The session a host call is sent on, held until `release()`. Normally the link's one session. With
   * `oneCallPerSession` (a 2026-07-28 principal's stand-in before an upstream whose questions do not say which call
   * asked them: stdio, legacy SSE), a call never shares its session with another call in flight: it gets the first
   * session no call holds, else a new one. Then every question such a session asks is its one call's, never a guess.
   */
  async forCall(): Promise<{ session: UpstreamSession; release: () => void }> {
    const first = await this.get();
    if (!this.#oneCallPerSession) return { session: first, release: () => undefined };
    this.#extra = this.#extra.filter((session) => !session.closed);
    let session = [first, ...this.#extra].find((candidate) => (this.#holds.get(candidate) ?? 0) === 0);
    if (session === undefined) session = await this.#openExtra();
    const held = session;
    this.#holds.set(held, (this.#holds.get(held) ?? 0) + 1);
    clearTimeout(this.#lingering.get(held));
    this.#lingering.delete(held);
    let released = false;
    return {
      session: held,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.#holds.get(held) ?? 1) - 1;
        if (left > 0) this.#holds.set(held, left);
        else {
          this.#holds.delete(held);
          if (held !== this.#session) this.#linger(held);
        }
      },
    };
  }

  /** An extra session no call holds stays for the next overlapping call a while, then closes: processes follow the overlap. */
  #linger(session: UpstreamSession): void {
    const timer = setTimeout(() => {
      this.#lingering.delete(session);
      if ((this.#holds.get(session) ?? 0) > 0) return;
      this.#extra = this.#extra.filter((extra) => extra !== session);
      void session.close();
    }, this.#extraLingerMs);
    timer.unref();
    this.#lingering.set(session, timer);
  }

  async #openExtra(): Promise<UpstreamSession> {
    const session = await this.#open();
    if (this.#closed) {
      void session.close(this.#closeReason);
      throw this.#closedError();
    }
    this.#extra.push(session);
    return session;
  }

  /** The live session, if one is open now (never opens one). */
  current(): UpstreamSession | undefined {
    return this.#session && !this.#session.closed ? this.#session : undefined;
  }

  /** The live session, opening one if needed. */
  get(): Promise<UpstreamSession> {
    const live = this.current();
    if (live) return Promise.resolve(live);
    if (this.#opening) return this.#opening;
    if (this.#closed) return Promise.reject(this.#closedError());
    const wait = this.#status.backoffRemaining();
    if (wait > 0) {
      const why = this.#status.report.error ?? 'it failed';
      return Promise.reject(
        new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${this.spec.name}' is unavailable (${why}); next try in ${Math.ceil(wait / 1000)} s`),
      );
    }
    this.#opening = this.#open().then(
      (session) => {
        this.#opening = undefined;
        if (this.#closed) {
          void session.close(this.#closeReason);
          throw this.#closedError();
        }
        this.#session = session;
        return session;
      },
      (error: unknown) => {
        this.#opening = undefined;
        throw error;
      },
    );
    return this.#opening;
  }

  /**
   * Drops a session the upstream no longer knows (HTTP 404) or whose era it no longer speaks, so the next
   * get() opens a new one; with `redetect`, that one detects the upstream's era again.
   */
  discard(session: UpstreamSession, options: { redetect?: boolean } = {}): void {
    if (this.#session === session) this.#session = undefined;
    this.#extra = this.#extra.filter((extra) => extra !== session);
    if (options.redetect) this.#status.forgetEra();
    void session.close();
  }

  /**
   * Closes the link and its sessions. With `reason` (the upstream left the configuration), calls pending on them and
   * calls that reach the link later fail with GW_ERR_UPSTREAM_CLOSED and that reason.
   */
  async close(reason?: string): Promise<void> {
    this.#closed = true;
    this.#closeReason ??= reason;
    this.#shared?.detach();
    this.#shared = undefined;
    const sessions = [this.#session, ...this.#extra];
    this.#session = undefined;
    this.#extra = [];
    this.#holds.clear();
    for (const timer of this.#lingering.values()) clearTimeout(timer);
    this.#lingering.clear();
    await Promise.all(sessions.map((session) => session?.close(reason)));
  }

  /** What a call on the closed link fails with: the upstream's removal, or the host session's end. */
  #closedError(): GatewayError {
    return this.#closeReason === undefined
      ? new GatewayError('GW_ERR_SESSION_CLOSED', 'the host session is closed')
      : new GatewayError('GW_ERR_UPSTREAM_CLOSED', this.#closeReason);
  }
}
