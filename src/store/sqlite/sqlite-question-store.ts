/** @module The default question store: one SQLite file (WAL, synchronous=FULL) through better-sqlite3; its `runs` keeps composite runs in the same file. */

import { systemClock } from '../../core/clock.js';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import Database from 'better-sqlite3';

import type { AuditEntry, QuestionFilter, QuestionRecord, Transition } from '../../questions/question.js';
import type { AuditLine, QuestionStore } from '../../questions/question-store.js';
import { decodeAudit, encodeAudit } from '../audit-row.js';
import { normalizeFilter } from '../list-filter.js';
import type { QuestionRow } from '../question-row.js';
import { QUESTION_COLUMNS, decodeQuestion, encodeQuestion } from '../question-row.js';
import { QuestionStoreError } from '../store-error.js';
import { stamp } from '../timestamps.js';
import { abandonTransition, planAbandon, planTransition } from '../transition-row.js';
import { listQuery } from './list-query.js';
import { checkHeader, latestVersion, migrate } from './schema.js';
import { SqliteRunStore } from './sqlite-run-store.js';

/** Where `serve` keeps its store unless told otherwise, relative to the working directory. */
export const DEFAULT_STORE_PATH = 'data/switchboard.db';

/** How long a statement waits for another process's write lock before failing with SQLITE_BUSY. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export interface SqliteQuestionStoreOptions {
  /** The database file; its folder and the file are created when missing. */
  path: string;
  /** This instance's name, stamped on the questions it creates (see `abandonOpen`). */
  owner?: string;
  now?: () => Date;
  busyTimeoutMs?: number;
}

/** What the connection actually runs with, read back from SQLite (for `check`, and to prove the settings took). */
export interface SqliteStoreSettings {
  path: string;
  schemaVersion: number;
  journalMode: string;
  /** 2 is FULL. */
  synchronous: number;
  foreignKeys: boolean;
  busyTimeoutMs: number;
  sqliteVersion: string;
}

const UPDATED_COLUMNS = ['state', 'updated_at', 'settled_at', 'answer', 'answered_by', 'answered_by_kind', 'host_params', 'audience', 'audience_reason'] as const;

/**
 * Opens (creating when missing) the store at `options.path`: WAL journal, synchronous=FULL, foreign keys on, a busy
 * timeout, the schema brought to the latest version. Rejects with `newer-schema` or `not-a-store` (the file untouched)
 * when the file is not one this code may use.
 */
export async function openSqliteQuestionStore(options: SqliteQuestionStoreOptions): Promise<SqliteQuestionStore> {
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path, { timeout: busyTimeoutMs });
  try {
    try {
      checkHeader(db, options.path);
    } catch (error) {
      if (error instanceof Database.SqliteError && error.code === 'SQLITE_NOTADB') {
        throw new QuestionStoreError('not-a-store', `${options.path} is not a SQLite database; point the store at another file`, { cause: error });
      }
      throw error;
    }
    const mode = String(db.pragma('journal_mode = WAL', { simple: true }));
    if (mode !== 'wal') throw new Error(`${options.path}: SQLite refused WAL journal mode (it stays ${mode})`);
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db, options.path);
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteQuestionStore(db, options.path, options.owner, options.now ?? systemClock.date, latestVersion());
}

export class SqliteQuestionStore implements QuestionStore {
  private readonly db: Database.Database;
  private readonly path: string;
  private readonly owner: string | undefined;
  private readonly now: () => Date;
  private readonly schemaVersion: number;
  private readonly listStatements = new Map<string, Database.Statement>();
  private readonly statements: {
    insertQuestion: Database.Statement;
    insertAudit: Database.Statement;
    selectQuestion: Database.Statement;
    updateIfIn: Database.Statement;
    selectAudit: Database.Statement;
    selectOpen: Database.Statement;
    selectOpenOf: Database.Statement;
  };
  private closed = false;
  /** The composite runs kept in the same file, on this connection (closed with it). */
  readonly runs: SqliteRunStore;

  /** Use `openSqliteQuestionStore`. */
  constructor(db: Database.Database, path: string, owner: string | undefined, now: () => Date, schemaVersion: number) {
    this.db = db;
    this.path = path;
    this.owner = owner;
    this.now = now;
    this.schemaVersion = schemaVersion;
    this.statements = {
      insertQuestion: db.prepare(`INSERT INTO questions (${QUESTION_COLUMNS.join(', ')}) VALUES (${QUESTION_COLUMNS.map((c) => `@${c}`).join(', ')})`),
      insertAudit: db.prepare('INSERT INTO audit (question_id, at, actor, action, detail) VALUES (@question_id, @at, @actor, @action, @detail)'),
      selectQuestion: db.prepare('SELECT * FROM questions WHERE id = ?'),
      // The compare-and-set: applies only while the state is still one of @from (a JSON array).
      updateIfIn: db.prepare(
        `UPDATE questions SET ${UPDATED_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id AND state IN (SELECT value FROM json_each(@from))`,
      ),
      selectAudit: db.prepare('SELECT * FROM audit WHERE question_id = ? ORDER BY id'),
      selectOpen: db.prepare("SELECT * FROM questions WHERE state IN ('pending', 'delivered') ORDER BY rowid"),
      selectOpenOf: db.prepare("SELECT * FROM questions WHERE state IN ('pending', 'delivered') AND owner = ? ORDER BY rowid"),
    };
    this.runs = new SqliteRunStore(db, { path, now, isClosed: () => this.closed });
  }

  async create(record: QuestionRecord, audit: AuditLine, ...more: AuditLine[]): Promise<void> {
    this.checkOpen();
    const row = encodeQuestion(record, this.owner);
    const at = stamp(this.now);
    const auditRows = [audit, ...more].map((line) => encodeAudit({ ...line, questionId: row.id }, at));
    const write = this.db.transaction(() => {
      this.statements.insertQuestion.run(row);
      for (const auditRow of auditRows) this.statements.insertAudit.run(auditRow);
    });
    try {
      write.immediate();
    } catch (error) {
      if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new QuestionStoreError('duplicate', `question ${row.id} already exists`, { questionId: row.id, cause: error });
      }
      throw error;
    }
  }

  async transition(id: string, transition: Transition): Promise<QuestionRecord | undefined> {
    this.checkOpen();
    const at = stamp(this.now);
    const write = this.db.transaction((): QuestionRecord | undefined => {
      const plan = planTransition(this.selectRow(id), id, transition, at);
      if (plan === undefined) return undefined;
      const { changes } = this.statements.updateIfIn.run({ ...pick(plan.next), id, from: JSON.stringify(transition.from) });
      if (changes !== 1) return undefined;
      this.statements.insertAudit.run(plan.audit);
      return plan.record;
    });
    return write.immediate();
  }

  async audit(entry: Omit<AuditEntry, 'at'>): Promise<void> {
    this.checkOpen();
    const row = encodeAudit(entry, stamp(this.now));
    try {
      this.statements.insertAudit.run(row);
    } catch (error) {
      if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        throw new QuestionStoreError('unknown-question', `no question ${row.question_id} to audit`, { questionId: row.question_id, cause: error });
      }
      throw error;
    }
  }

  async get(id: string): Promise<QuestionRecord | undefined> {
    this.checkOpen();
    const row = this.selectRow(id);
    return row === undefined ? undefined : decodeQuestion(row);
  }

  async list(filter?: QuestionFilter): Promise<QuestionRecord[]> {
    this.checkOpen();
    const normalized = normalizeFilter(filter);
    const { sql, params } = listQuery(normalized);
    let statement = this.listStatements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.listStatements.set(sql, statement);
    }
    return (statement.all(params) as object[]).map((row) => decodeQuestion(row));
  }

  async auditTrail(id: string): Promise<AuditEntry[]> {
    this.checkOpen();
    return (this.statements.selectAudit.all(id) as object[]).map((row) => decodeAudit(row));
  }

  async abandonOpen(reason: string, owner?: string): Promise<number> {
    this.checkOpen();
    const transition = abandonTransition(reason);
    const at = stamp(this.now);
    const write = this.db.transaction((): number => {
      const open = (owner === undefined ? this.statements.selectOpen.all() : this.statements.selectOpenOf.all(owner)) as QuestionRow[];
      let count = 0;
      for (const row of open) {
        const plan = planAbandon(row, transition, at);
        const { changes } = this.statements.updateIfIn.run({ ...pick(plan.next), id: row.id, from: JSON.stringify(transition.from) });
        if (changes !== 1) continue;
        this.statements.insertAudit.run(plan.audit);
        count += 1;
      }
      return count;
    });
    return write.immediate();
  }

  /** Harmless when already closed. The last connection to close folds the WAL back into the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  /** The settings the connection runs with, read back from SQLite. */
  settings(): SqliteStoreSettings {
    this.checkOpen();
    return {
      path: this.path,
      schemaVersion: this.schemaVersion,
      journalMode: String(this.db.pragma('journal_mode', { simple: true })),
      synchronous: Number(this.db.pragma('synchronous', { simple: true })),
      foreignKeys: Number(this.db.pragma('foreign_keys', { simple: true })) === 1,
      busyTimeoutMs: Number(this.db.pragma('busy_timeout', { simple: true })),
      sqliteVersion: String(this.db.prepare('SELECT sqlite_version()').pluck().get()),
    };
  }

  private selectRow(id: string): QuestionRow | undefined {
    return this.statements.selectQuestion.get(id) as QuestionRow | undefined;
  }

  private checkOpen(): void {
    if (this.closed) throw new QuestionStoreError('closed', `the question store ${this.path} is closed`);
  }
}

/** The columns a transition may change, as named parameters. */
function pick(row: QuestionRow): Record<(typeof UPDATED_COLUMNS)[number], string | null> {
  return Object.fromEntries(UPDATED_COLUMNS.map((column) => [column, row[column]])) as Record<(typeof UPDATED_COLUMNS)[number], string | null>;
}
