/**
 * @module Bench cluster cell, database counters: what a batch of questions costs PostgreSQL. Rows written per table
 * (pg_stat_user_tables), notifications on the schema's change channel (heard by listening), and write transactions
 * (transaction ids handed out, read off pg_current_snapshot, which assigns none itself).
 */

import pg from 'pg';

import { changeChannel } from '../src/store/postgres/pg-changes.js';

/** Rows a table has had inserted, updated and deleted (as the statistics know them so far). */
export interface TableRows {
  inserted: number;
  updated: number;
  deleted: number;
}

/** The counters at one moment. */
export interface CounterSnapshot {
  /** The next transaction id to be handed out. */
  nextXid: number;
  /** The schema's tables by name. */
  tables: Record<string, TableRows>;
  /** Heartbeat updates of the `instances` tables of every schema (background writes of every running instance). */
  heartbeats: number;
}

export class PgCounters {
  #client: pg.Client;
  #schema: string;
  #notifications = 0;

  private constructor(client: pg.Client, schema: string) {
    this.#client = client;
    this.#schema = schema;
  }

  /** Connects and starts listening on the schema's change channel. */
  static async open(url: string, schema: string): Promise<PgCounters> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const counters = new PgCounters(client, schema);
    const channel = changeChannel(schema);
    client.on('notification', (message) => {
      if (message.channel === channel) counters.#notifications += 1;
    });
    await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    return counters;
  }

  /** Notifications heard on the schema's channel since `open`. */
  get notifications(): number {
    return this.#notifications;
  }

  async serverVersion(): Promise<string> {
    const { rows } = await this.#client.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
    return rows[0]?.version ?? 'unknown';
  }

  async snapshot(): Promise<CounterSnapshot> {
    // Each query runs in a transaction of its own; clearing the snapshot makes sure the statistics are read afresh.
    await this.#client.query('SELECT pg_stat_clear_snapshot()');
    const xid = await this.#client.query<{ xmax: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax');
    const stats = await this.#client.query<{ schemaname: string; relname: string; ins: string; upd: string; del: string }>(
      `SELECT schemaname, relname, n_tup_ins::text AS ins, n_tup_upd::text AS upd, n_tup_del::text AS del FROM pg_stat_user_tables WHERE schemaname = $1 OR relname = 'instances'`,
      [this.#schema],
    );
    const tables: Record<string, TableRows> = {};
    let heartbeats = 0;
    for (const row of stats.rows) {
      if (row.relname === 'instances') heartbeats += Number(row.upd);
      if (row.schemaname === this.#schema) tables[row.relname] = { inserted: Number(row.ins), updated: Number(row.upd), deleted: Number(row.del) };
    }
    return { nextXid: Number(xid.rows[0]?.xmax), tables, heartbeats };
  }

  async close(): Promise<void> {
    await this.#client.end().catch(() => undefined);
  }
}
