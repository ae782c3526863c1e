/**
 * @module A lazily opened upstream session for one host session (or for all, when shared): opened on
 * first use, opened again after the upstream crashed or forgot our session, refused while backing off.
 */

import type { UpstreamSpec } from '../config/types.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { UpstreamSession } from './session.js';
import type { UpstreamStatus } from './status.js';

export class UpstreamLink {
  readonly spec: UpstreamSpec;
  #status: UpstreamStatus;
  #open: () => Promise<UpstreamSession>;
  #session: UpstreamSession | undefined;
  #opening: Promise<UpstreamSession> | undefined;
  #closed = false;

  constructor(status: UpstreamStatus, open: () => Promise<UpstreamSession>) {
    this.spec = status.spec;
    this.#status = status;
    this.#open = open;
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
    if (this.#closed) return Promise.reject(new GatewayError('GW_ERR_SESSION_CLOSED', 'the host session is closed'));
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
          void session.close();
          throw new GatewayError('GW_ERR_SESSION_CLOSED', 'the host session is closed');
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
    if (options.redetect) this.#status.forgetEra();
    void session.close();
  }

  async close(): Promise<void> {
    this.#closed = true;
    const session = this.#session;
    this.#session = undefined;
    await session?.close();
  }
}
