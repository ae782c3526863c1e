/**
 * @module The pool of 2026-07-28 principal sessions: one per principal and envelope, admitted by the session caps (as
 * `stand-in`s, the name the caps and metrics have always used), the idle one used least recently evicted at a cap,
 * and the idle sweep.
 */

import type { IdSource } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { GatewayError } from '../../protocol/gateway-errors.js';
import type { ModernRequestContext } from '../../ports/host-contracts.js';
import type { HostPort, UpstreamRound } from '../../ports/host-port.js';
import type { SessionLimits, SessionSlot } from '../../ports/session-limits.js';
import type { RoutedSession } from '../../router/routed-session.js';
import { PrincipalSession, standInKey } from './principal-session.js';

/**
 * The refusal when a session cap is reached and no session is idle: the gateway's own limit, retryable (-32603).
 * Each distinct principal and envelope gets a session, and with it upstream sessions (processes, for stdio
 * upstreams): the caps keep a host that varies its envelope from opening them without end.
 */
export function tooManySessions(): JsonRpcErrorObject {
  return new GatewayError('GW_ERR_HOST_LIMIT', 'The gateway holds as many host sessions as its limits allow and none is idle; retry later').toProtocolError().toJson();
}

export interface PrincipalPoolOptions {
  /** Opens the routed session behind a principal session, reached through `port`; `onClosed` runs once it is closed. */
  openSession(port: HostPort, transport: ModernRequestContext['transport'], onClosed: () => void): RoutedSession;
  /** A 2026-07-28 upstream's round for a principal's call, taken with its state wrapped. */
  takeRound(principal: string, round: UpstreamRound): Promise<JsonObject | undefined>;
  /** The count every session is admitted by (caps on stand-ins, on each principal and on all host sessions). */
  limits: SessionLimits;
  /** A session with no call and no listen stream for this long is closed (with its upstream sessions); 0 = never. */
  idleTimeoutMs: number;
  logger: Logger;
  /** Numbers the calls (`m-N`). */
  ids: IdSource;
  /** A notification outside any call of a session. */
  onBroadcast(from: PrincipalSession, message: JsonRpcNotification): void;
  /** A session closed (after it left the pool and the count). */
  onClosed(session: PrincipalSession): void;
  now(): number;
}

export class PrincipalPool {
  #options: PrincipalPoolOptions;
  #sessions = new Map<string, PrincipalSession>();
  /** The slot each open session holds in the session count. */
  #slots = new WeakMap<PrincipalSession, SessionSlot>();
  #sweeper: NodeJS.Timeout | undefined;

  constructor(options: PrincipalPoolOptions) {
    this.#options = options;
    if (options.idleTimeoutMs > 0) {
      this.#sweeper = setInterval(() => this.#sweep(), Math.max(1000, Math.floor(options.idleTimeoutMs / 2)));
      this.#sweeper.unref();
    }
  }

  /** Stops the sweep and closes every open session. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(open.map((session) => session.routed.close()));
  }

  /**
   * The session of a request's principal and envelope, opened when needed. At a session cap, the idle session used
   * least recently is closed to make room; when none is idle, undefined (the request is refused, nothing opened).
   */
  get(context: ModernRequestContext): PrincipalSession | undefined {
    const key = standInKey(context);
    const known = this.#sessions.get(key);
    if (known && !known.closed) return known;
    const holder: { session?: PrincipalSession } = {};
    const slot = this.#options.limits.admit({
      kind: 'stand-in',
      principal: context.sessionCapKey ?? context.principal,
      isIdle: () => holder.session?.idle ?? false,
      evict: () => {
        if (holder.session) this.#closeSession(holder.session);
      },
    });
    if (!slot) {
      this.#options.logger.log('warn', 'refusing a 2026-07-28 request: the host session caps are reached and no session is idle');
      return undefined;
    }
    let session: PrincipalSession;
    try {
      session = this.#open(key, context, slot);
    } catch (error) {
      slot.release();
      throw error;
    }
    holder.session = session;
    this.#slots.set(session, slot);
    this.#sessions.set(key, session);
    return session;
  }

  /** A session was used: its idle time starts again, and it becomes the most recently used session. */
  used(session: PrincipalSession): void {
    session.lastUsed = this.#options.now();
    this.#slots.get(session)?.touch();
  }

  #open(key: string, context: ModernRequestContext, slot: SessionSlot): PrincipalSession {
    const session: PrincipalSession = new PrincipalSession({
      key,
      principal: context.principal,
      ...(context.identity ? { identity: context.identity } : {}),
      envelope: context.envelope,
      open: (port) =>
        this.#options.openSession(port, context.transport, () => {
          slot.release();
          if (this.#sessions.get(session.key) === session) this.#sessions.delete(session.key);
          this.#options.onClosed(session);
        }),
      takeRound: (principal, round) => this.#options.takeRound(principal, round),
      onBroadcast: (from, message) => this.#options.onBroadcast(from, message),
      now: () => this.#options.now(),
      ids: this.#options.ids,
    });
    return session;
  }

  /** Closes a session (idle for too long, or to make room): it leaves the map and the count at once. */
  #closeSession(session: PrincipalSession): void {
    if (this.#sessions.get(session.key) === session) this.#sessions.delete(session.key);
    this.#slots.get(session)?.release();
    void session.routed.close();
  }

  #sweep(): void {
    const now = this.#options.now();
    for (const session of this.#sessions.values()) {
      if (session.idle && now - session.lastUsed >= this.#options.idleTimeoutMs) this.#closeSession(session);
    }
  }
}
