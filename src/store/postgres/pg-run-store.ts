/** @module Composite runs in the PostgreSQL store's schema (`runs` and `run_questions`), on the question store's pool: one pool to size and to close. */

import { systemClock } from '../../core/clock.js';

import type { Pool, PoolClient } from 'pg';

import type { RunRecord } from '../../composite/run-record.js';
import type { RunFilter, RunOfQuestion, RunStore } from '../../composite/run-store.js';
import { RunStoreError, isRunStoreError } from '../../composite/run-store.js';
import type { RunRow } from '../run-row.js';
import { RUN_COLUMNS, abandonedRun, decodeRun, encodeRun, normalizeRunFilter, questionLinks, questionTaken } from '../run-row.js';
import { stamp } from '../timestamps.js';
import { connectionReason, failureKind, isUniqueViolation } from './pg-errors.js';
import { pgRunListQuery } from './pg-list-query.js';
import type { Tables } from './pg-sql.js';
import { inTransaction, placeholders, selectList, sweepInPasses } from './pg-sql.js';


export interface PostgresRunStoreOptions {
  /** The server as shown in messages (no password). */
  url: string;
  /** This instance's name, stamped on the runs it creates. */
  owner: string | undefined;
  /** Whether the owner of the pool has closed it. */
  isClosed: () => boolean;
  now?: () => Date;
}

const TIME_COLUMNS: ReadonlySet<string> = new Set(['started_at', 'finished_at']);
const RUN_SELECT = selectList(RUN_COLUMNS, TIME_COLUMNS);
const UPDATED_COLUMNS = RUN_COLUMNS.filter((column) => column !== 'id');

/** Use `PostgresQuestionStore.runs`: the run store lives on the question store's pool and closes with it. */
export class PostgresRunStore implements RunStore {
  private readonly pool: Pool;
  private readonly tables: Tables;
  private readonly options: PostgresRunStoreOptions;
  private readonly now: () => Date;
  private readonly sql: { insert: string; update: string; select: string };

  constructor(pool: Pool, tables: Tables, options: PostgresRunStoreOptions) {
    this.pool = pool;
    this.tables = tables;
    this.options = options;
    this.now = options.now ?? systemClock.date;
    this.sql = {
      insert: `INSERT INTO ${tables.runs} (${RUN_COLUMNS.join(', ')}, owner) VALUES (${placeholders(RUN_COLUMNS.length + 1)})`,
      update: `UPDATE ${tables.runs} SET ${UPDATED_COLUMNS.map((column, index) => `${column} = $${index + 2}`).join(', ')} WHERE id = $1`,
      select: `SELECT ${RUN_SELECT} FROM ${tables.runs}`,
    };
  }

  async create(run: RunRecord): Promise<void> {
    return this.guard('invalid-record', async () => {
      const row = encodeRun(run);
      try {
        await inTransaction(this.pool, async (client) => {
          await client.query(this.sql.insert, [...RUN_COLUMNS.map((column) => row[column]), this.options.owner ?? null]);
          await this.writeLinks(client, row.id, run);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'runs_pkey')) throw new RunStoreError('duplicate', `run ${row.id} already exists`, { runId: row.id, cause: error });
        throw error;
      }
    });
  }

  async update(run: RunRecord): Promise<void> {
    return this.guard('invalid-record', async () => {
      const row = encodeRun(run);
      await inTransaction(this.pool, async (client) => {
        const { rowCount } = await client.query(this.sql.update, [row.id, ...UPDATED_COLUMNS.map((column) => row[column])]);
        if (rowCount !== 1) throw new RunStoreError('unknown-run', `no run ${row.id} to update`, { runId: row.id });
        await this.writeLinks(client, row.id, run);
      });
    });
  }

  async get(id: string): Promise<RunRecord | undefined> {
    return this.guard('invalid-record', async () => {
      const { rows } = await this.pool.query<RunRow>(`${this.sql.select} WHERE id = $1`, [id]);
      return rows[0] === undefined ? undefined : decodeRun(rows[0]);
    });
  }

  async list(filter?: RunFilter): Promise<RunRecord[]> {
    return this.guard('invalid-filter', async () => {
      const { sql, params } = pgRunListQuery(RUN_SELECT, this.tables.runs, normalizeRunFilter(filter));
      const { rows } = await this.pool.query<RunRow>(sql, params);
      return rows.map((row) => decodeRun(row));
    });
  }

  async findByQuestion(questionId: string): Promise<RunOfQuestion | undefined> {
    return this.guard('invalid-record', async () => {
      // One statement: the link and the run it names, read together.
      const { rows } = await this.pool.query<RunRow & { step_id: string }>(
        `SELECT ${selectList(RUN_COLUMNS, TIME_COLUMNS, 'r')}, l.step_id
         FROM ${this.tables.runQuestions} l JOIN ${this.tables.runs} r ON r.id = l.run_id WHERE l.question_id = $1`,
        [questionId],
      );
      const found = rows[0];
      if (found === undefined) return undefined;
      const { step_id: stepId, ...row } = found;
      return { run: decodeRun(row), stepId };
    });
  }

  /**
   * Fails the running runs (of `owner`, when given) in passes that skip rows another transaction holds locked
   * (`FOR UPDATE SKIP LOCKED`), as the question sweep does: a skipped row is tried again in the next pass.
   */
  async abandonRunning(reason: string, owner?: string): Promise<number> {
    return this.guard('invalid-record', async () => {
      const at = stamp(this.now);
      const mine = owner === undefined ? '' : ' AND owner = $1';
      const params = owner === undefined ? [] : [owner];
      return sweepInPasses(
        () =>
          inTransaction(this.pool, async (client) => {
            const { rows } = await client.query<RunRow>(`${this.sql.select} WHERE state = 'running'${mine} ORDER BY seq FOR UPDATE SKIP LOCKED`, params);
            for (const row of rows) {
              const next = encodeRun(abandonedRun(decodeRun(row), reason, at));
              await client.query(this.sql.update, [next.id, ...UPDATED_COLUMNS.map((column) => next[column])]);
            }
            return rows.length;
          }),
        async () => (await this.pool.query<{ running: number }>(`SELECT count(*)::int AS running FROM ${this.tables.runs} WHERE state = 'running'${mine}`, params)).rows[0]?.running ?? 0,
      );
    });
  }

  /** Inside the write's transaction: refuses a question another run claims, then makes the links the run's steps say. */
  private async writeLinks(client: PoolClient, runId: string, run: RunRecord): Promise<void> {
    const links = questionLinks(run);
    const questions = links.map((link) => link.questionId);
    if (links.length > 0) {
      const { rows } = await client.query<{ question_id: string; run_id: string }>(
        `SELECT question_id, run_id FROM ${this.tables.runQuestions} WHERE question_id = ANY($1::text[]) AND run_id <> $2 LIMIT 1`,
        [questions, runId],
      );
      const taken = rows[0];
      if (taken !== undefined) throw questionTaken(runId, taken.question_id, taken.run_id);
    }
    await client.query(`DELETE FROM ${this.tables.runQuestions} WHERE run_id = $1`, [runId]);
    if (links.length === 0) return;
    try {
      await client.query(
        `INSERT INTO ${this.tables.runQuestions} (question_id, run_id, step_id) SELECT l.question_id, $1, l.step_id FROM unnest($2::text[], $3::text[]) AS l (question_id, step_id)`,
        [runId, questions, links.map((link) => link.stepId)],
      );
    } catch (error) {
      // Another run claimed one of these questions between the check and the insert (it committed first).
      if (isUniqueViolation(error, 'run_questions_pkey')) {
        throw new RunStoreError('invalid-record', `run ${runId} cannot be stored: one of its questions (${questions.join(', ')}) belongs to another run`, { runId, cause: error });
      }
      throw error;
    }
  }

  /** Runs `work` on an open store, turning what the driver reports into the store's errors (see `failureKind`). */
  private async guard<T>(refused: 'invalid-record' | 'invalid-filter', work: () => Promise<T>): Promise<T> {
    if (this.options.isClosed()) throw new RunStoreError('closed', `the run store ${this.options.url} is closed`);
    try {
      return await work();
    } catch (error) {
      if (isRunStoreError(error)) throw error;
      const kind = failureKind(error);
      if (kind === 'unavailable') {
        throw new RunStoreError('unavailable', `the PostgreSQL store ${this.options.url} is unavailable: ${connectionReason(error)}`, { cause: error });
      }
      if (kind === 'refused-value') throw new RunStoreError(refused, `PostgreSQL cannot keep a value given: ${(error as Error).message}`, { cause: error });
      throw error;
    }
  }
}
