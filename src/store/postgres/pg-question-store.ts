/** @module The shared question store: PostgreSQL through a `pg` pool, so several gateway instances can use one database; every state change is a compare-and-set in the database, and `runs` keeps composite runs in the same schema. */

import { systemClock } from '../../core/clock.js';

import type { Pool, PoolClient } from 'pg';

import type { AuditEntry, QuestionFilter, QuestionRecord, Transition } from '../../questions/question.js';
import { OPEN_STATES } from '../../questions/question.js';
import type { AuditLine, QuestionStore } from '../../questions/question-store.js';
import type { AuditRow } from '../audit-row.js';
import { decodeAudit, encodeAudit } from '../audit-row.js';
import { normalizeFilter } from '../list-filter.js';
import type { QuestionRow } from '../question-row.js';
import { QUESTION_COLUMNS, decodeQuestion, encodeQuestion } from '../question-row.js';
import { QuestionStoreError, isQuestionStoreError } from '../store-error.js';
import { stamp } from '../timestamps.js';
import { abandonTransition, planAbandon, planTransition } from '../transition-row.js';
import { connectionReason, failureKind, isUniqueViolation, sqlState } from './pg-errors.js';
import { pgListQuery } from './pg-list-query.js';
import type { PoolOptions } from './pg-pool.js';
import { DEFAULT_POOL_SIZE, createPool, shownUrl, withFirstConnection } from './pg-pool.js';
import { latestVersion, migrate } from './pg-schema.js';
import type { Tables } from './pg-sql.js';
import { inTransaction, isoText, placeholders, selectList, sweepInPasses, tablesOf } from './pg-sql.js';
import { PostgresRunStore } from './pg-run-store.js';
import { PgParkedCalls } from './pg-parked-calls.js';
import { PgChangeListener } from './pg-changes.js';

/** The schema the store's tables live in unless told otherwise. */
export const DEFAULT_SCHEMA = 'public';

export interface PostgresQuestionStoreOptions extends PoolOptions {
  /** The schema holding the tables (default `public`); created when missing. */
  schema?: string;
  /** This instance's name, stamped on the questions and runs it creates (see `abandonOpen`). */
  owner?: string;
  now?: () => Date;
}

/** What the store runs against, for `check` and logs: never the password. */
export interface PostgresStoreSettings {
  url: string;
  schema: string;
  schemaVersion: number;
  serverVersion: string;
  poolSize: number;
}

const TIME_COLUMNS: ReadonlySet<string> = new Set(['created_at', 'updated_at', 'settled_at', 'deadline']);
const UPDATED_COLUMNS = ['state', 'updated_at', 'settled_at', 'answer', 'answered_by', 'answered_by_kind', 'host_params', 'audience', 'audience_reason'] as const;
const QUESTION_SELECT = selectList(QUESTION_COLUMNS, TIME_COLUMNS);
const AUDIT_SELECT = `id, question_id, ${isoText('at')} AS at, actor, action, detail`;

/**
 * Opens the store: a pool of at most `poolSize` connections, the schema brought to the latest version under an advisory
 * lock. Rejects with `unavailable` when the server cannot be reached or refuses us (connection refused, wrong password),
 * `newer-schema` or `not-a-store` (nothing changed) when the schema is not one this code may use.
 */
export async function openPostgresQuestionStore(options: PostgresQuestionStoreOptions): Promise<PostgresQuestionStore> {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  const url = shownUrl(options.url);
  const serverVersion = await withFirstConnection(options, async (client) => {
    try {
      await migrate(client, schema, `schema ${schema} of ${url}`);
      const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
      return rows[0]?.server_version ?? 'unknown';
    } catch (error) {
      throw failureKind(error) === 'unavailable'
        ? new QuestionStoreError('unavailable', `the PostgreSQL store ${url} failed while opening: ${connectionReason(error)}`, { cause: error })
        : error;
    }
  });
  const pool = createPool(options);
  const settings: PostgresStoreSettings = { url, schema, schemaVersion: latestVersion(), serverVersion, poolSize: options.poolSize ?? DEFAULT_POOL_SIZE };
  return new PostgresQuestionStore(pool, tablesOf(schema), settings, options.owner, options.now ?? systemClock.date, options);
}

export class PostgresQuestionStore implements QuestionStore {
  private readonly pool: Pool;
  private readonly tables: Tables;
  private readonly info: PostgresStoreSettings;
  private readonly owner: string | undefined;
  private readonly now: () => Date;
  private readonly sql: { insert: string; updateIfIn: string; insertAudit: string; select: string };
  private closed = false;
  /** The composite runs kept in the same schema, on this pool (closed with it). */
  readonly runs: PostgresRunStore;
  /** How to reach the server for a connection of its own (the change listener); absent: no changes are heard. */
  #connection: PoolOptions | undefined;
  #listeners = new Set<(id: string) => void>();
  #listener: PgChangeListener | undefined;

  /** Use `openPostgresQuestionStore`. */
  constructor(pool: Pool, tables: Tables, settings: PostgresStoreSettings, owner: string | undefined, now: () => Date, connection?: PoolOptions) {
    this.#connection = connection;
    this.pool = pool;
    this.tables = tables;
    this.info = settings;
    this.owner = owner;
    this.now = now;
    const auditColumns = '(question_id, at, actor, action, detail)';
    this.sql = {
      // The row and its audit lines in one statement: the lines come in as arrays, in the order given.
      insert: `WITH q AS (INSERT INTO ${tables.questions} (${QUESTION_COLUMNS.join(', ')}) VALUES (${placeholders(QUESTION_COLUMNS.length)}) RETURNING id)
        INSERT INTO ${tables.audit} ${auditColumns}
        SELECT q.id, $${QUESTION_COLUMNS.length + 1}::timestamptz, l.actor, l.action, l.detail
        FROM q, unnest($${QUESTION_COLUMNS.length + 2}::text[], $${QUESTION_COLUMNS.length + 3}::text[], $${QUESTION_COLUMNS.length + 4}::text[])
          WITH ORDINALITY AS l (actor, action, detail, n)
        ORDER BY l.n`,
      // The compare-and-set: the row changes only while its state is still one of $2, and the audit line is written
      // only with the change. $1 is the id, $2 the states, then the changed columns, then the line.
      updateIfIn: `WITH u AS (
          UPDATE ${tables.questions} SET ${UPDATED_COLUMNS.map((column, index) => `${column} = $${index + 3}`).join(', ')}
          WHERE id = $1 AND state = ANY($2::text[]) RETURNING id)
        INSERT INTO ${tables.audit} ${auditColumns}
        SELECT u.id, $${UPDATED_COLUMNS.length + 3}::timestamptz, $${UPDATED_COLUMNS.length + 4}::text, $${UPDATED_COLUMNS.length + 5}::text, $${UPDATED_COLUMNS.length + 6}::text FROM u`,
      insertAudit: `INSERT INTO ${tables.audit} ${auditColumns} VALUES (${placeholders(5)})`,
      select: `SELECT ${QUESTION_SELECT} FROM ${tables.questions}`,
    };
    this.runs = new PostgresRunStore(pool, tables, { url: settings.url, owner, now, isClosed: () => this.closed });
  }

  /** The parked calls of this instance (its owner), on the store's pool: the handle ledger of a gateway of several instances. */
  parkedCalls(onError: (error: unknown) => void): PgParkedCalls {
    if (this.owner === undefined) throw new Error('parked-call records need the store opened with an owner');
    return new PgParkedCalls(this.pool, this.tables, this.owner, onError);
  }

  async create(record: QuestionRecord, audit: AuditLine, ...more: AuditLine[]): Promise<void> {
    return this.guard('invalid-record', async () => {
      const row = encodeQuestion(record, this.owner);
      const at = stamp(this.now);
      const lines = [audit, ...more].map((line) => encodeAudit({ ...line, questionId: row.id }, at));
      try {
        await this.pool.query(this.sql.insert, [
          ...QUESTION_COLUMNS.map((column) => row[column]),
          at,
          lines.map((line) => line.actor),
          lines.map((line) => line.action),
          lines.map((line) => line.detail),
        ]);
      } catch (error) {
        if (isUniqueViolation(error, 'questions_pkey')) {
          throw new QuestionStoreError('duplicate', `question ${row.id} already exists`, { questionId: row.id, cause: error });
        }
        throw error;
      }
    });
  }

  async transition(id: string, transition: Transition): Promise<QuestionRecord | undefined> {
    return this.guard('invalid-record', async () => {
      const at = stamp(this.now);
      return inTransaction(this.pool, async (client) => {
        // The row lock makes a racing transition wait here, then read the state the winner left.
        const { rows } = await client.query<QuestionRow>(`${this.sql.select} WHERE id = $1 FOR UPDATE`, [id]);
        const plan = planTransition(rows[0], id, transition, at);
        if (plan === undefined) return undefined;
        return (await this.updateIfIn(client, plan.next, transition.from, plan.audit)) ? plan.record : undefined;
      });
    });
  }

  /** Questions created or changed by any writer of this schema, this one included, heard over LISTEN/NOTIFY (ids only). */
  changes(listener: (id: string) => void): () => void {
    // Each subscription is its own entry, so one listener given twice is told twice, and removed once each.
    const entry = (id: string) => listener(id);
    this.#listeners.add(entry);
    if (!this.#listener && this.#connection && !this.closed) {
      this.#listener = new PgChangeListener(this.#connection, this.info.schema, (id) => {
        for (const heard of this.#listeners) heard(id);
      });
    }
    return () => this.#listeners.delete(entry);
  }

  async audit(entry: Omit<AuditEntry, 'at'>): Promise<void> {
    return this.guard('invalid-record', async () => {
      const row = encodeAudit(entry, stamp(this.now));
      try {
        await this.pool.query(this.sql.insertAudit, [row.question_id, row.at, row.actor, row.action, row.detail]);
      } catch (error) {
        if (sqlState(error) === '23503') {
          throw new QuestionStoreError('unknown-question', `no question ${row.question_id} to audit`, { questionId: row.question_id, cause: error });
        }
        throw error;
      }
    });
  }

  async get(id: string): Promise<QuestionRecord | undefined> {
    return this.guard('invalid-record', async () => {
      const { rows } = await this.pool.query<QuestionRow>(`${this.sql.select} WHERE id = $1`, [id]);
      return rows[0] === undefined ? undefined : decodeQuestion(rows[0]);
    });
  }

  async list(filter?: QuestionFilter): Promise<QuestionRecord[]> {
    return this.guard('invalid-filter', async () => {
      const { sql, params } = pgListQuery(QUESTION_SELECT, this.tables.questions, normalizeFilter(filter));
      const { rows } = await this.pool.query<QuestionRow>(sql, params);
      return rows.map((row) => decodeQuestion(row));
    });
  }

  async auditTrail(id: string): Promise<AuditEntry[]> {
    return this.guard('invalid-record', async () => {
      const { rows } = await this.pool.query<AuditRow>(`SELECT ${AUDIT_SELECT} FROM ${this.tables.audit} WHERE question_id = $1 ORDER BY id`, [id]);
      return rows.map((row) => decodeAudit(row));
    });
  }

  async ownerOf(id: string): Promise<string | undefined> {
    return this.guard('invalid-record', async () => {
      const { rows } = await this.pool.query<{ owner: string | null }>(`SELECT owner FROM ${this.tables.questions} WHERE id = $1`, [id]);
      return rows[0]?.owner ?? undefined;
    });
  }

  /**
   * Abandons the open questions (of `owner`, when given) in passes that skip rows another transaction holds locked
   * (`FOR UPDATE SKIP LOCKED`): a sweep never waits behind an answer being written, and a second sweeper takes what the
   * first has not. A skipped row is tried again in the next pass (its holder may roll back), for a bounded time.
   */
  async abandonOpen(reason: string, owner?: string): Promise<number> {
    return this.guard('invalid-record', async () => {
      const transition = abandonTransition(reason);
      const at = stamp(this.now);
      const params: unknown[] = [OPEN_STATES];
      if (owner !== undefined) params.push(owner);
      const mine = owner === undefined ? '' : ' AND owner = $2';
      return sweepInPasses(
        () =>
          inTransaction(this.pool, async (client) => {
            const { rows } = await client.query<QuestionRow>(`${this.sql.select} WHERE state = ANY($1::text[])${mine} ORDER BY seq FOR UPDATE SKIP LOCKED`, params);
            let done = 0;
            for (const row of rows) {
              const plan = planAbandon(row, transition, at);
              if (await this.updateIfIn(client, plan.next, transition.from, plan.audit)) done += 1;
            }
            return done;
          }),
        async () => (await this.pool.query<{ open: number }>(`SELECT count(*)::int AS open FROM ${this.tables.questions} WHERE state = ANY($1::text[])${mine}`, params)).rows[0]?.open ?? 0,
      );
    });
  }

  /** Harmless when already closed; waits for the pool's connections to be handed back, then closes them. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.#listeners.clear();
    await this.#listener?.close();
    await this.pool.end();
  }

  /** What the store runs against (the URL without its password). */
  settings(): PostgresStoreSettings {
    return { ...this.info };
  }

  /** The compare-and-set and its audit line, in one statement; whether the row changed. */
  private async updateIfIn(client: PoolClient, next: QuestionRow, from: readonly string[], audit: Omit<AuditRow, 'id'>): Promise<boolean> {
    const { rowCount } = await client.query(this.sql.updateIfIn, [
      next.id,
      from,
      ...UPDATED_COLUMNS.map((column) => next[column]),
      audit.at,
      audit.actor,
      audit.action,
      audit.detail,
    ]);
    return rowCount === 1;
  }

  /** Runs `work` on an open store, turning what the driver reports into the store's errors (see `failureKind`). */
  private async guard<T>(refused: 'invalid-record' | 'invalid-filter', work: () => Promise<T>): Promise<T> {
    if (this.closed) throw new QuestionStoreError('closed', `the question store ${this.info.url} is closed`);
    try {
      return await work();
    } catch (error) {
      if (isQuestionStoreError(error)) throw error;
      const kind = failureKind(error);
      if (kind === 'unavailable') {
        throw new QuestionStoreError('unavailable', `the PostgreSQL store ${this.info.url} is unavailable: ${connectionReason(error)}`, { cause: error });
      }
      if (kind === 'refused-value') throw new QuestionStoreError(refused, `PostgreSQL cannot keep a value given: ${(error as Error).message}`, { cause: error });
      throw error;
    }
  }
}
