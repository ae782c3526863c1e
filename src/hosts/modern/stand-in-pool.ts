/**
 * @module The pool of stand-ins of 2026-07-28 hosts: one per principal and envelope, admitted by the session caps, the idle one used least recently evicted at a cap, and the idle sweep.
 */

import type { IdSource } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import type { JsonRpcErrorObject, JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { GatewayError } from '../../protocol/gateway-errors.js';
import type { HostChannel, ModernRequestContext } from '../../ports/host-contracts.js';
import type { SessionLimits, SessionSlot } from '../../ports/session-limits.js';
import type { GatewayHostSession, ModernHostHooks } from '../legacy/host-session.js';
import { StandIn, standInKey } from './stand-in.js';

/**
 * The refusal when a session cap is reached and no session is idle: the gateway's own limit, retryable (-32603).
 * Each distinct principal and envelope gets a stand-in, and with it upstream sessions (processes, for stdio
 * upstreams): the caps keep a host that varies its envelope from opening them without end.
 */
export function tooManyStandIns(): JsonRpcErrorObject {
  return new GatewayError('GW_ERR_HOST_LIMIT', 'The gateway holds as many host sessions as its limits allow and none is idle; retry later').toProtocolError().toJson();
}

export interface StandInPoolOptions {
  /** Opens the host session behind a stand-in. */
  openSession(channel: HostChannel, hooks: ModernHostHooks): GatewayHostSession;
  /** The hooks of a new stand-in's session; `standIn` gives the stand-in once it is open. */
  hooksFor(principal: string, standIn: () => StandIn | undefined): ModernHostHooks;
  /** The count every stand-in is admitted by (caps on stand-ins, on each principal and on all host sessions). */
  limits: SessionLimits;
  /** A stand-in with no call and no listen stream for this long is closed (with its upstream sessions); 0 = never. */
  idleTimeoutMs: number;
  logger: Logger;
  /** Numbers the stand-ins' own requests (`m-N`), shared with the calls. */
  ids: IdSource;
  /** A notification outside any call of a stand-in. */
  onBroadcast(from: StandIn, message: JsonRpcNotification): void;
  /** A stand-in's session closed (after it left the pool and the count). */
  onClosed(standIn: StandIn): void;
  now(): number;
}

export class StandInPool {
  #options: StandInPoolOptions;
  #standIns = new Map<string, StandIn>();
  /** The slot each open stand-in holds in the session count. */
  #slots = new WeakMap<StandIn, SessionSlot>();
  #sweeper: NodeJS.Timeout | undefined;

  constructor(options: StandInPoolOptions) {
    this.#options = options;
    if (options.idleTimeoutMs > 0) {
      this.#sweeper = setInterval(() => this.#sweep(), Math.max(1000, Math.floor(options.idleTimeoutMs / 2)));
      this.#sweeper.unref();
    }
  }

  /** Stops the sweep and closes every open stand-in. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const open = [...this.#standIns.values()];
    this.#standIns.clear();
    await Promise.all(open.map((standIn) => standIn.session.close()));
  }

  /**
   * The stand-in of a request's principal and envelope, opened when needed. At a session cap, the idle session used
   * least recently is closed to make room; when none is idle, undefined (the request is refused, nothing opened).
   */
  get(context: ModernRequestContext): StandIn | undefined {
    const key = standInKey(context);
    const known = this.#standIns.get(key);
    if (known && !known.session.closed) return known;
    const holder: { standIn?: StandIn } = {};
    const slot = this.#options.limits.admit({
      kind: 'stand-in',
      principal: context.sessionCapKey ?? context.principal,
      isIdle: () => holder.standIn?.idle ?? false,
      evict: () => {
        if (holder.standIn) this.#closeStandIn(holder.standIn);
      },
    });
    if (!slot) {
      this.#options.logger.log('warn', 'refusing a 2026-07-28 request: the host session caps are reached and no session is idle');
      return undefined;
    }
    const hooks = this.#options.hooksFor(context.principal, () => holder.standIn);
    let standIn: StandIn;
    try {
      standIn = this.#open(key, context, hooks, slot);
    } catch (error) {
      slot.release();
      throw error;
    }
    holder.standIn = standIn;
    this.#slots.set(standIn, slot);
    this.#standIns.set(key, standIn);
    return standIn;
  }

  /** A stand-in was used: its idle time starts again, and it becomes the most recently used session. */
  used(standIn: StandIn): void {
    standIn.lastUsed = this.#options.now();
    this.#slots.get(standIn)?.touch();
  }

  #open(key: string, context: ModernRequestContext, hooks: ModernHostHooks, slot: SessionSlot): StandIn {
    return new StandIn({
      key,
      principal: context.principal,
      envelope: context.envelope,
      transport: context.transport,
      open: (channel) => this.#options.openSession(channel, hooks),
      onBroadcast: (from, message) => this.#options.onBroadcast(from, message),
      now: () => this.#options.now(),
      ids: this.#options.ids,
      onClosed: (closed) => {
        slot.release();
        if (this.#standIns.get(closed.key) === closed) this.#standIns.delete(closed.key);
        this.#options.onClosed(closed);
      },
    });
  }

  /** Closes a stand-in (idle for too long, or to make room): it leaves the map and the count at once. */
  #closeStandIn(standIn: StandIn): void {
    if (this.#standIns.get(standIn.key) === standIn) this.#standIns.delete(standIn.key);
    this.#slots.get(standIn)?.release();
    void standIn.session.close();
  }

  #sweep(): void {
    const now = this.#options.now();
    for (const standIn of this.#standIns.values()) {
      if (standIn.idle && now - standIn.lastUsed >= this.#options.idleTimeoutMs) this.#closeStandIn(standIn);
    }
  }
}
