/**
 * @module Composite runs in the question store's SQLite file (schema version 2: `runs` and `run_questions`), on the
 * question store's own connection: same WAL journal, same WAL sync before a write resolves, same busy timeout, one
 * connection to close.
 */

import { systemClock } from '../../core/clock.js';
import Database from 'better-sqlite3';

import type { RunRecord } from '../../composite/run-record.js';
import type { RunFilter, RunOfQuestion, RunStore } from '../../composite/run-store.js';
import { RunStoreError } from '../../composite/run-store.js';
import type { RunRow } from '../run-row.js';
import { RUN_COLUMNS, abandonedRun, decodeRun, encodeRun, normalizeRunFilter, questionLinks, questionTaken } from '../run-row.js';
import { stamp } from '../timestamps.js';
import { runListQuery } from './list-query.js';
import type { WalSync } from './wal-sync.js';
import { syncFailure } from './wal-sync.js';

export interface SqliteRunStoreOptions {
  /** For messages. */
  path: string;
  /** Whether the owner of the connection has closed it. */
  isClosed: () => boolean;
  now?: () => Date;
  /** The question store's: when the connection's commits are on disk. */
  sync: WalSync;
}

/** Use `SqliteQuestionStore.runs`: the run store lives on the question store's connection and closes with it. */
export class SqliteRunStore implements RunStore {
  private readonly db: Database.Database;
  private readonly path: string;
  private readonly isClosed: () => boolean;
  private readonly now: () => Date;
  private readonly sync: WalSync;
  private readonly listStatements = new Map<string, Database.Statement>();
  private readonly statements: {
    insert: Database.Statement;
    update: Database.Statement;
    select: Database.Statement;
    selectRunning: Database.Statement;
    selectLinkOwners: Database.Statement;
    deleteLinks: Database.Statement;
    insertLink: Database.Statement;
    selectLink: Database.Statement;
  };

  constructor(db: Database.Database, options: SqliteRunStoreOptions) {
    this.db = db;
    this.path = options.path;
    this.isClosed = options.isClosed;
    this.now = options.now ?? systemClock.date;
    this.sync = options.sync;
    const updated = RUN_COLUMNS.filter((column) => column !== 'id');
    this.statements = {
      insert: db.prepare(`INSERT INTO runs (${RUN_COLUMNS.join(', ')}) VALUES (${RUN_COLUMNS.map((c) => `@${c}`).join(', ')})`),
      update: db.prepare(`UPDATE runs SET ${updated.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`),
      select: db.prepare('SELECT * FROM runs WHERE id = ?'),
      selectRunning: db.prepare("SELECT * FROM runs WHERE state = 'running' ORDER BY rowid"),
      // Which of these questions (a JSON array) another run already claims.
      selectLinkOwners: db.prepare('SELECT question_id, run_id FROM run_questions WHERE question_id IN (SELECT value FROM json_each(@questions)) AND run_id <> @run LIMIT 1'),
      deleteLinks: db.prepare('DELETE FROM run_questions WHERE run_id = ?'),
      insertLink: db.prepare('INSERT INTO run_questions (question_id, run_id, step_id) VALUES (@question_id, @run_id, @step_id)'),
      selectLink: db.prepare('SELECT run_id, step_id FROM run_questions WHERE question_id = ?'),
    };
  }

  async create(run: RunRecord): Promise<void> {
    this.checkOpen();
    const row = encodeRun(run);
    const write = this.db.transaction(() => {
      this.statements.insert.run(row);
      this.writeLinks(row.id, run);
    });
    try {
      write.immediate();
    } catch (error) {
      if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new RunStoreError('duplicate', `run ${row.id} already exists`, { runId: row.id, cause: error });
      }
      throw error;
    }
    await this.committed();
  }

  async update(run: RunRecord): Promise<void> {
    this.checkOpen();
    const row = encodeRun(run);
    const write = this.db.transaction(() => {
      const { changes } = this.statements.update.run(row);
      if (changes !== 1) throw new RunStoreError('unknown-run', `no run ${row.id} to update`, { runId: row.id });
      this.writeLinks(row.id, run);
    });
    write.immediate();
    await this.committed();
  }

  async get(id: string): Promise<RunRecord | undefined> {
    this.checkOpen();
    const row = this.statements.select.get(id) as RunRow | undefined;
    await this.onDisk();
    return row === undefined ? undefined : decodeRun(row);
  }

  async list(filter?: RunFilter): Promise<RunRecord[]> {
    this.checkOpen();
    const { sql, params } = runListQuery(normalizeRunFilter(filter));
    let statement = this.listStatements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.listStatements.set(sql, statement);
    }
    const rows = statement.all(params) as RunRow[];
    await this.onDisk();
    return rows.map((row) => decodeRun(row));
  }

  async findByQuestion(questionId: string): Promise<RunOfQuestion | undefined> {
    this.checkOpen();
    const read = this.db.transaction((): { row: RunRow; stepId: string } | undefined => {
      const link = this.statements.selectLink.get(questionId) as { run_id: string; step_id: string } | undefined;
      if (link === undefined) return undefined;
      const row = this.statements.select.get(link.run_id) as RunRow | undefined;
      return row === undefined ? undefined : { row, stepId: link.step_id };
    });
    const found = read();
    await this.onDisk();
    return found === undefined ? undefined : { run: decodeRun(found.row), stepId: found.stepId };
  }

  async abandonRunning(reason: string): Promise<number> {
    this.checkOpen();
    const at = stamp(this.now);
    const write = this.db.transaction((): number => {
      const running = this.statements.selectRunning.all() as RunRow[];
      for (const row of running) this.statements.update.run(encodeRun(abandonedRun(decodeRun(row), reason, at)));
      return running.length;
    });
    const count = write.immediate();
    await this.committed();
    return count;
  }

  /** Inside the write's transaction: refuses a question another run claims, then makes the links the run's steps say. */
  private writeLinks(runId: string, run: RunRecord): void {
    const links = questionLinks(run);
    if (links.length > 0) {
      const taken = this.statements.selectLinkOwners.get({ questions: JSON.stringify(links.map((link) => link.questionId)), run: runId }) as
        | { question_id: string; run_id: string }
        | undefined;
      if (taken !== undefined) throw questionTaken(runId, taken.question_id, taken.run_id);
    }
    this.statements.deleteLinks.run(runId);
    for (const link of links) this.statements.insertLink.run({ question_id: link.questionId, run_id: runId, step_id: link.stepId });
  }

  /** A write was committed: resolves once it is on disk. */
  private async committed(): Promise<void> {
    this.sync.committed();
    await this.onDisk();
  }

  /** Resolves once everything committed on the connection so far is on disk (see SqliteQuestionStore). */
  private async onDisk(): Promise<void> {
    try {
      await this.sync.durable();
    } catch (error) {
      throw new RunStoreError('unavailable', syncFailure(this.path, error), { cause: error });
    }
  }

  private checkOpen(): void {
    if (this.isClosed()) throw new RunStoreError('closed', `the run store ${this.path} is closed`);
  }
}
