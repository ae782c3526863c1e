/**
 * @module The lists of a per-session upstream for host sessions that have no upstream session of their own yet: one
 * list session per (revision, declared capabilities), opened at the first list and shared by every host that would
 * open the upstream alike, its lists cached until the upstream says they changed; closed a while after its last host.
 */

import { canonicalJson } from '../protocol/canonical-json.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { Logger } from '../core/log.js';
import { LIST_CACHE_KEYS } from './list-all.js';
import { UpstreamLink } from './link.js';
import { SWITCHBOARD_INFO } from './probe.js';
import type { InitializeParams, UpstreamHandlers, UpstreamSession } from './session.js';
import type { UpstreamStatus } from './status.js';

/** How long a list session no host listens to stays open for the next host (for stdio: its process lives on). */
export const LIST_SOURCE_LINGER_MS = 60_000;

/** Tells one host that a list it was shown changed (`notifications/tools/list_changed` and the like). */
export type ListChanged = (method: string) => void;

export interface ListSourcesOptions {
  /** The upstream's health and backoff (a list session that cannot open marks it as a host's own session would). */
  status: UpstreamStatus;
  /** Opens a list session initialized with `init`, whose upstream's messages go to `handlers`. */
  open: (init: InitializeParams, handlers: UpstreamHandlers) => Promise<UpstreamSession>;
  logger: Logger;
  /** Instrumentation of every request sent (the gateway's metrics), as for any upstream session. */
  onRequestDone?: UpstreamHandlers['onRequestDone'];
  lingerMs?: number;
}

/** One list session and the hosts that list from it. */
export class ListSource {
  readonly #link: UpstreamLink;
  readonly #listeners = new Set<ListChanged>();
  #linger: NodeJS.Timeout | undefined;
  readonly #idle: () => void;

  constructor(link: UpstreamLink, idle: () => void) {
    this.#link = link;
    this.#idle = idle;
  }

  /** The list session, opened if needed (refused while the upstream backs off, as a host's own would be). */
  session(): Promise<UpstreamSession> {
    return this.#link.get();
  }

  /** The list session if it is open now. */
  current(): UpstreamSession | undefined {
    return this.#link.current();
  }

  /** How many hosts list from it now. */
  get listeners(): number {
    return this.#listeners.size;
  }

  /** A host lists from this session from now on and hears of its list changes, until it calls the function returned. */
  attach(listener: ListChanged): () => void {
    clearTimeout(this.#linger);
    this.#linger = undefined;
    this.#listeners.add(listener);
    return () => {
      if (!this.#listeners.delete(listener) || this.#listeners.size > 0) return;
      this.#idle();
    };
  }

  /** The upstream said a list changed: the cache goes, and every host listening is told. */
  changed(session: UpstreamSession, method: string): void {
    for (const key of LIST_CACHE_KEYS[method] ?? []) session.listCache.delete(key);
    for (const listener of [...this.#listeners]) listener(method);
  }

  /** Closes the session after `ms` unless a host attaches first; `closed` runs once it is closed. */
  lingerThenClose(ms: number, closed: () => void): void {
    clearTimeout(this.#linger);
    this.#linger = setTimeout(() => {
      this.#linger = undefined;
      if (this.#listeners.size > 0) return;
      closed();
      void this.#link.close();
    }, ms);
    this.#linger.unref();
  }

  /** `reason`: why (the upstream left the configuration); lists read after it fail with it. */
  close(reason?: string): Promise<void> {
    clearTimeout(this.#linger);
    this.#listeners.clear();
    return this.#link.close(reason);
  }
}

/** Every list session of one per-session upstream, by what its hosts would declare to it. */
export class ListSources {
  readonly #options: ListSourcesOptions;
  readonly #sources = new Map<string, ListSource>();
  /** Which source each open list session serves (what its upstream sends goes there). */
  readonly #bySession = new WeakMap<UpstreamSession, ListSource>();
  readonly #handlers: UpstreamHandlers;

  constructor(options: ListSourcesOptions) {
    this.#options = options;
    const logger = options.logger;
    const name = options.status.spec.name;
    this.#handlers = {
      onRequest: (session, request) => {
        if (request.method === 'ping') {
          session.respond(request.id, {});
          return;
        }
        // No host's call runs on a list session, so no host can be asked.
        const why = `${request.method} from upstream '${name}' came on the gateway's list session, which carries no host's call`;
        logger.log('warn', why);
        session.respondError(request.id, new GatewayError('GW_ERR_QUESTION_UNATTRIBUTABLE', `Not deliverable: ${why}`).toProtocolError());
      },
      onNotification: (session, message) => {
        if (LIST_CACHE_KEYS[message.method]) this.#bySession.get(session)?.changed(session, message.method);
      },
      onClose: (session, reason) => logger.log('debug', `list session ${session.key} of upstream '${name}' ended: ${reason}`),
      ...(options.onRequestDone ? { onRequestDone: options.onRequestDone } : {}),
    };
  }

  /** The source for hosts initializing the upstream with `init` (same revision and capabilities: same lists). */
  sourceFor(init: InitializeParams): ListSource {
    const key = `${init.protocolVersion}\n${canonicalJson(init.capabilities)}`;
    const known = this.#sources.get(key);
    if (known) return known;
    // Who lists is the gateway, for many hosts: it says so, rather than naming one of them.
    const listInit: InitializeParams = { ...init, clientInfo: SWITCHBOARD_INFO };
    // The link opens its session only when a host lists, after `source` is set.
    const link = new UpstreamLink(this.#options.status, async () => {
      const session = await this.#options.open(listInit, this.#handlers);
      this.#bySession.set(session, source);
      return session;
    });
    const source: ListSource = new ListSource(link, () => source.lingerThenClose(this.#options.lingerMs ?? LIST_SOURCE_LINGER_MS, () => this.#forget(key, source)));
    this.#sources.set(key, source);
    return source;
  }

  /** How many list sessions are open now (tests, health). */
  get open(): number {
    return [...this.#sources.values()].filter((source) => source.current() !== undefined).length;
  }

  async close(reason?: string): Promise<void> {
    const sources = [...this.#sources.values()];
    this.#sources.clear();
    await Promise.all(sources.map((source) => source.close(reason)));
  }

  #forget(key: string, source: ListSource): void {
    if (this.#sources.get(key) === source) this.#sources.delete(key);
  }
}
