/**
 * @module The parked calls of 2026-07-28 hosts, recorded in PostgreSQL (design 013): the handle ledger of a gateway of
 * several instances. A park is recorded (which instance holds the call, for which principal digest, until when), the
 * handle's one use is a compare-and-set from `parked` to `resumed`, and a call that ended without it, or whose
 * instance died or restarted, is `gone`. Records are kept an hour past their expiry, then purged.
 */

import type { Pool } from 'pg';

import type { HandleLedger, LedgerMark } from '../../bridge/handle-ledger.js';
import type { HandlePayload } from '../../bridge/handle-payload.js';
import type { Tables } from './pg-sql.js';

/** How long a record is kept after its handle expired (for operators looking back), before a purge drops it. */
const KEEP_AFTER_EXPIRY = '1 hour';

export interface ParkedCallCounts {
  parked: number;
  resumed: number;
  gone: number;
}

export class PgParkedCalls implements HandleLedger {
  readonly #pool: Pool;
  readonly #table: string;
  readonly #owner: string;
  readonly #onError: (error: unknown) => void;
  /** Records being written: a handle used before its record is in is checked after the write. */
  readonly #writing = new Map<string, Promise<void>>();

  constructor(pool: Pool, tables: Tables, owner: string, onError: (error: unknown) => void) {
    this.#pool = pool;
    this.#table = tables.parkedCalls;
    this.#owner = owner;
    this.#onError = onError;
  }

  parked(payload: HandlePayload): void {
    const write = this.#pool
      .query(
        `INSERT INTO ${this.#table} (id, owner, upstream, method, principal, issued_at, expires_at, state)
         VALUES ($1, $2, $3, $4, $5, to_timestamp($6::double precision / 1000), to_timestamp($7::double precision / 1000), 'parked')
         ON CONFLICT (id) DO NOTHING`,
        [payload.id, this.#owner, payload.upstream, payload.method, payload.principal, payload.issuedAt, payload.expiresAt],
      )
      .then(
        () => undefined,
        (error: unknown) => this.#onError(error),
      )
      .finally(() => this.#writing.delete(payload.id));
    this.#writing.set(payload.id, write);
  }

  /** The one use: `parked` → `resumed`; a handle already resumed is `replayed`. One gone or never recorded is left to the caller (its call is not held: `gone`). */
  async markUsed(id: string): Promise<LedgerMark> {
    await this.#writing.get(id);
    const used = await this.#pool.query(`UPDATE ${this.#table} SET state = 'resumed', ended_at = now() WHERE id = $1 AND state = 'parked'`, [id]);
    if (used.rowCount === 1) return 'first-use';
    const { rows } = await this.#pool.query<{ state: string }>(`SELECT state FROM ${this.#table} WHERE id = $1`, [id]);
    return rows[0]?.state === 'resumed' ? 'replayed' : 'first-use';
  }

  ended(id: string): void {
    void (this.#writing.get(id) ?? Promise.resolve())
      .then(() => this.#pool.query(`UPDATE ${this.#table} SET state = 'gone', ended_at = now() WHERE id = $1 AND state = 'parked'`, [id]))
      .catch((error: unknown) => this.#onError(error));
  }

  /** The calls `owner` held parked are gone (it died, or restarted under its id); resolves how many. */
  async goneOf(owner: string): Promise<number> {
    const result = await this.#pool.query(`UPDATE ${this.#table} SET state = 'gone', ended_at = now() WHERE owner = $1 AND state = 'parked'`, [owner]);
    return result.rowCount ?? 0;
  }

  /** Drops the records whose handle expired more than an hour ago; resolves how many. */
  async purge(): Promise<number> {
    const result = await this.#pool.query(`DELETE FROM ${this.#table} WHERE expires_at < now() - interval '${KEEP_AFTER_EXPIRY}'`);
    return result.rowCount ?? 0;
  }

  /** How many calls are parked, resumed and gone now (for /healthz). */
  async counts(): Promise<ParkedCallCounts> {
    const { rows } = await this.#pool.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM ${this.#table} GROUP BY state`);
    const count = (state: string) => rows.find((row) => row.state === state)?.n ?? 0;
    return { parked: count('parked'), resumed: count('resumed'), gone: count('gone') };
  }
}
