/** @module Replay protection for parked handles: a ledger that lets each handle id be used once while the handle lives. */

import type { HandlePayload } from './handle-payload.js';

/** `first-use`: recorded now, go ahead; `replayed`: used before, refuse; `full`: cannot record, refuse (fail closed) and let the host retry later. */
export type LedgerMark = 'first-use' | 'replayed' | 'full';

/**
 * Marks handle ids used, once. An entry only has to outlive its handle: after `expiresAt` the handle
 * is refused as expired before the ledger is asked, so the entry may go. Asynchronous so that a
 * durable implementation (the question store, see docs/design/007) fits the same shape; it must make
 * the check and the write one atomic step (a compare-and-set), or two retries racing could both win.
 */
export interface HandleLedger {
  markUsed(id: string, expiresAt: number, now: number): Promise<LedgerMark>;
  /** A call was parked under this handle: a durable ledger records where it waits, for whom and until when. */
  parked?(payload: HandlePayload): void;
  /** The parked call under handle `id` ended without the handle being used (its deadline, a cancel, its upstream gone). */
  ended?(id: string): void;
}

export const DEFAULT_LEDGER_CAPACITY = 100_000;

/**
 * The in-memory ledger: one process, forgotten on restart (as the parked calls it protects are). At
 * capacity it first drops expired entries; if still full it refuses new ones rather than forget a
 * live one, which would re-open it to replay.
 */
export class MemoryHandleLedger implements HandleLedger {
  readonly #capacity: number;
  readonly #used = new Map<string, number>();

  constructor(options: { capacity?: number } = {}) {
    const capacity = options.capacity ?? DEFAULT_LEDGER_CAPACITY;
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError('the ledger capacity must be a positive integer');
    this.#capacity = capacity;
  }

  /** Entries held now (expired ones included until the next purge). */
  get size(): number {
    return this.#used.size;
  }

  markUsed(id: string, expiresAt: number, now: number): Promise<LedgerMark> {
    return Promise.resolve(this.#mark(id, expiresAt, now));
  }

  #mark(id: string, expiresAt: number, now: number): LedgerMark {
    const known = this.#used.get(id);
    if (known !== undefined && known > now) return 'replayed';
    if (known !== undefined) this.#used.delete(id);
    if (this.#used.size >= this.#capacity) this.purge(now);
    if (this.#used.size >= this.#capacity) return 'full';
    this.#used.set(id, expiresAt);
    return 'first-use';
  }

  /** Drops entries whose handle has expired at `now`; returns how many. */
  purge(now: number): number {
    let dropped = 0;
    for (const [id, expiresAt] of this.#used) {
      if (expiresAt <= now) {
        this.#used.delete(id);
        dropped++;
      }
    }
    return dropped;
  }
}
