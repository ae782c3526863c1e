/**
 * @module The gateway instances sharing a PostgreSQL schema: each joins under its id, holds an advisory lock on it for
 * its life on a connection of its own, and heartbeats; a survivor finds an instance dead once its heartbeat is older
 * than `deadAfterMs` and its lock is free (its process or connection is gone), and records the death once, whoever
 * finds it first.
 */

import { Client } from 'pg';

import { QuestionStoreError } from '../store-error.js';
import { connectionReason } from './pg-errors.js';
import type { PoolOptions } from './pg-pool.js';
import { clientConfig, shownUrl } from './pg-pool.js';
import type { Tables } from './pg-sql.js';
import { tablesOf } from './pg-sql.js';

/** The advisory lock class ("SBIN") an instance holds on its id; the lock's object is the hash of {@link lockName}. */
export const INSTANCE_LOCK_CLASS = 0x5342494e;

/** What an instance's lock is taken on: its id within its schema (advisory locks span the database, ids one schema). */
function lockName(tables: Tables, id: string): string {
  return `${tables.schema}/${id}`;
}

export interface InstanceOptions extends PoolOptions {
  /** The schema of the store the instances share. */
  schema: string;
  /** This instance's id: the owner stamped on the questions and runs it creates. */
  id: string;
  /** An instance silent this long, with its lock free, is dead. */
  deadAfterMs: number;
  /** Where the other instances reach this one (`cluster.advertise`); absent: they cannot forward to it. */
  advertise?: string;
  /** Told about a heartbeat that failed (the next one tries again). */
  onError?: (error: unknown) => void;
}

export interface InstanceRecord {
  id: string;
  state: 'up' | 'dead' | 'left';
  startedAt: string;
  heartbeatAt: string;
  /** Where the other instances reach it, if it said. */
  advertise?: string;
}

/** What another instance needs to forward a request to one: whether it is up, and where it is reached. */
export interface InstancePlace {
  state: InstanceRecord['state'];
  advertise?: string;
}

/**
 * Joins the instances of `options.schema` (whose migrations created the table): takes the lock on `options.id`, or
 * rejects with `instance-taken` while a live process holds that id; then records the instance up and heartbeats every
 * third of `deadAfterMs`. An instance that joins again under the same id starts afresh (its questions left open were
 * abandoned by its desk's start, or by a survivor).
 */
export async function joinInstances(options: InstanceOptions): Promise<PgInstance> {
  const tables = tablesOf(options.schema);
  return new PgInstance(await connectAs(options, tables), tables, options);
}

/** A connection holding the lock on `options.id`, the instance recorded up on it. */
async function connectAs(options: InstanceOptions, tables: Tables): Promise<Client> {
  const client = new Client(clientConfig(options));
  client.on('error', (error) => options.onError?.(error));
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new QuestionStoreError('unavailable', `cannot connect to the PostgreSQL store ${shownUrl(options.url)}: ${connectionReason(error)}`, { cause: error });
  }
  const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS taken', [INSTANCE_LOCK_CLASS, lockName(tables, options.id)]);
  if (!rows[0]?.taken) {
    await client.end().catch(() => undefined);
    throw new QuestionStoreError('instance-taken', `instance id ${options.id} is held by a live gateway on ${shownUrl(options.url)}: give this instance another id (cluster.id)`);
  }
  await client.query(
    `INSERT INTO ${tables.instances} (id, state, started_at, heartbeat_at, advertise) VALUES ($1, 'up', now(), now(), $2)
     ON CONFLICT (id) DO UPDATE SET state = 'up', started_at = now(), heartbeat_at = now(), ended_at = NULL, ended_by = NULL, advertise = $2`,
    [options.id, options.advertise ?? null],
  );
  return client;
}

export class PgInstance {
  readonly id: string;
  /** Undefined while the connection is lost (until the next heartbeat joins again). */
  #client: Client | undefined;
  #tables: Tables;
  #options: InstanceOptions;
  #beat: NodeJS.Timeout;
  #left = false;
  /** A join on a new connection is under way. */
  #joining = false;

  constructor(client: Client, tables: Tables, options: InstanceOptions) {
    this.id = options.id;
    this.#client = client;
    this.#tables = tables;
    this.#options = options;
    this.#watch(client);
    this.#beat = setInterval(() => void this.#heartbeat(), Math.max(100, Math.floor(options.deadAfterMs / 3)));
    this.#beat.unref();
  }

  /**
   * The instance's connection dropped (the lock went with it): it joins again on a new one at the next heartbeat.
   * Survivors may have found it dead meanwhile and abandoned its questions; its desk's re-read then carries that out.
   */
  #watch(client: Client): void {
    client.on('end', () => {
      if (this.#client === client && !this.#left) this.#client = undefined;
    });
  }

  /**
   * The instances found dead now: silent for `deadAfterMs` and no longer holding their lock. Each is recorded dead by
   * compare-and-set, so of two survivors sweeping together only one gets it (and abandons its questions).
   */
  async sweep(): Promise<string[]> {
    const client = this.#client;
    if (!client) return [];
    const silent = await client.query<{ id: string }>(
      `SELECT id FROM ${this.#tables.instances} WHERE state = 'up' AND id <> $1 AND heartbeat_at < now() - make_interval(secs => $2::double precision / 1000)`,
      [this.id, this.#options.deadAfterMs],
    );
    const dead: string[] = [];
    for (const { id } of silent.rows) {
      // A live instance holds its lock: a silent one that still does is slow, not dead.
      const { rows } = await client.query<{ free: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS free', [INSTANCE_LOCK_CLASS, lockName(this.#tables, id)]);
      if (!rows[0]?.free) continue;
      try {
        const ended = await client.query(`UPDATE ${this.#tables.instances} SET state = 'dead', ended_at = now(), ended_by = $2 WHERE id = $1 AND state = 'up'`, [id, this.id]);
        if (ended.rowCount === 1) dead.push(id);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [INSTANCE_LOCK_CLASS, lockName(this.#tables, id)]);
      }
    }
    return dead;
  }

  /** Every instance recorded, newest first (for check and /healthz). */
  async list(): Promise<InstanceRecord[]> {
    const { rows } = await this.#connected().query<{ id: string; state: InstanceRecord['state']; started_at: Date; heartbeat_at: Date; advertise: string | null }>(
      `SELECT id, state, started_at, heartbeat_at, advertise FROM ${this.#tables.instances} ORDER BY started_at DESC`,
    );
    return rows.map((row) => ({
      id: row.id,
      state: row.state,
      startedAt: row.started_at.toISOString(),
      heartbeatAt: row.heartbeat_at.toISOString(),
      ...(row.advertise === null ? {} : { advertise: row.advertise }),
    }));
  }

  /** Whether instance `id` is recorded up and where it is reached; undefined when no instance of that id ever joined. */
  async place(id: string): Promise<InstancePlace | undefined> {
    const { rows } = await this.#connected().query<{ state: InstanceRecord['state']; advertise: string | null }>(
      `SELECT state, advertise FROM ${this.#tables.instances} WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return { state: row.state, ...(row.advertise === null ? {} : { advertise: row.advertise }) };
  }

  /**
   * Whether instance `id` is surely gone now: its lock is free, so no live process (or connection) holds the id. Asked
   * when a forward to it failed, before its heartbeat has aged to `deadAfterMs`: a host then learns at once that its
   * session is gone instead of waiting for the sweep.
   */
  async isGone(id: string): Promise<boolean> {
    // Its own lock would be granted again here (advisory locks are reentrant): this instance is not gone.
    if (id === this.id) return false;
    const client = this.#connected();
    const { rows } = await client.query<{ free: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS free', [INSTANCE_LOCK_CLASS, lockName(this.#tables, id)]);
    if (!rows[0]?.free) return false;
    await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [INSTANCE_LOCK_CLASS, lockName(this.#tables, id)]);
    return true;
  }

  #connected(): Client {
    const client = this.#client;
    if (!client) throw new QuestionStoreError('unavailable', `the connection of instance ${this.id} to ${shownUrl(this.#options.url)} is lost; it joins again shortly`);
    return client;
  }

  /** Leaves: recorded `left`, the lock let go with the connection. */
  async leave(): Promise<void> {
    if (this.#left) return;
    this.#left = true;
    clearInterval(this.#beat);
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    await client.query(`UPDATE ${this.#tables.instances} SET state = 'left', ended_at = now(), ended_by = $1 WHERE id = $1 AND state = 'up'`, [this.id]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }

  async #heartbeat(): Promise<void> {
    if (this.#joining) return;
    try {
      if (this.#client) {
        await this.#client.query(`UPDATE ${this.#tables.instances} SET heartbeat_at = now() WHERE id = $1`, [this.id]);
        return;
      }
      this.#joining = true;
      const client = await connectAs(this.#options, this.#tables);
      if (this.#left) {
        await client.end().catch(() => undefined);
        return;
      }
      this.#client = client;
      this.#watch(client);
    } catch (error) {
      this.#options.onError?.(error);
    } finally {
      this.#joining = false;
    }
  }
}
