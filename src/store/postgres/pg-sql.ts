/** @module SQL pieces of the PostgreSQL store: the tables of one schema, times read back as toISOString() text, one transaction on a pooled client. */

import { escapeIdentifier } from 'pg';
import type { Pool, PoolClient } from 'pg';

/** The store's tables, qualified with their schema (so no connection depends on its search_path). */
export interface Tables {
  schema: string;
  questions: string;
  audit: string;
  runs: string;
  runQuestions: string;
  instances: string;
  parkedCalls: string;
  migrations: string;
}

/** How many passes a sweep (abandonOpen, abandonRunning) makes over rows other transactions held locked, and the pause between two. */
const SWEEP_PASSES = 20;
const SWEEP_PASS_PAUSE_MS = 50;

/**
 * A sweep in passes: `pass` takes what it can (`FOR UPDATE SKIP LOCKED`, so it never waits behind another writer) and
 * resolves how many rows it changed; `left` counts what is still to take (rows skipped, whose holder may roll back).
 * Passes go on until nothing is left, for a bounded time. Resolves the rows changed over all passes.
 */
export async function sweepInPasses(pass: () => Promise<number>, left: () => Promise<number>): Promise<number> {
  let count = 0;
  for (let round = 0; round < SWEEP_PASSES; round += 1) {
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, SWEEP_PASS_PAUSE_MS));
    count += await pass();
    if ((await left()) === 0) break;
  }
  return count;
}

/** The table that records which migrations ran: its presence marks a schema as a Switchboard store. */
export const MIGRATIONS_TABLE = 'switchboard_migrations';

export function tablesOf(schema: string): Tables {
  const qualified = (table: string) => `${escapeIdentifier(schema)}.${table}`;
  return {
    schema,
    questions: qualified('questions'),
    audit: qualified('audit'),
    runs: qualified('runs'),
    runQuestions: qualified('run_questions'),
    instances: qualified('instances'),
    parkedCalls: qualified('parked_calls'),
    migrations: qualified(MIGRATIONS_TABLE),
  };
}

/** A timestamptz column as the text `Date.toISOString()` writes (UTC, milliseconds, `Z`), which the row codecs expect. */
export function isoText(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The SELECT list of `columns` (of the table named `alias`, when given), the ones in `times` (timestamptz) read back as ISO text under their own name. */
export function selectList(columns: readonly string[], times: ReadonlySet<string>, alias?: string): string {
  return columns
    .map((column) => {
      const qualified = alias === undefined ? column : `${alias}.${column}`;
      return times.has(column) ? `${isoText(qualified)} AS ${column}` : qualified;
    })
    .join(', ');
}

/** `$1, $2, …` for `count` parameters starting at `from`. */
export function placeholders(count: number, from = 1): string {
  return Array.from({ length: count }, (_, index) => `$${from + index}`).join(', ');
}

/**
 * Runs `work` on a client of `pool`, handed back afterwards; `discard(error)` marks it not to be reused. While it is checked out, the client's `error` event (its socket died) discards it: the pool listens only
 * on idle clients, and an unheard `error` would crash the process. The query in flight fails with that error too.
 */
export async function withClient<T>(pool: Pool, work: (client: PoolClient, discard: (error: unknown) => void) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const discard = (error: unknown) => {
    broken ??= error instanceof Error ? error : new Error(String(error));
  };
  client.on('error', discard);
  try {
    return await work(client, discard);
  } finally {
    client.removeListener('error', discard);
    client.release(broken);
  }
}

/**
 * Runs `work` in one transaction (READ COMMITTED) on a client of `pool`: committed when it resolves, rolled back when it
 * throws (the error is rethrown). A client whose rollback failed is discarded rather than returned to the pool.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, async (client, discard) => {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(discard);
      throw error;
    }
  });
}
