/** @module The default question store: one SQLite file (WAL, each commit synced by wal-sync.ts off the event loop) through better-sqlite3; its `runs` keeps composite runs in the same file. */

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
import type { SyncFile } from './wal-sync.js';
import { WalSync, syncFailure, walFileSync } from './wal-sync.js';

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
  /** Test seam: what makes the WAL durable (default: fdatasync of `<path>-wal`, on libuv's thread pool). */
  syncWal?: SyncFile;
}

/** What the connection actually runs with, read back from SQLite (for `check`, and to prove the settings took). */
export interface SqliteStoreSettings {
  path: string;
  schemaVersion: number;
  journalMode: string;
  /** 1 is NORMAL: a commit does not sync; the store syncs the WAL before a write resolves (wal-sync.ts). */
  synchronous: number;
  foreignKeys: boolean;
  busyTimeoutMs: number;
  sqliteVersion: string;
}

const UPDATED_COLUMNS = ['state', 'updated_at', 'settled_at', 'answer', 'answered_by', 'answered_by_kind', 'host_params', 'audience', 'audience_reason'] as const;

/**
 * Opens (creating when missing) the store at `options.path`: WAL journal, foreign keys on, a busy timeout, the schema
 * brought to the latest version with synchronous=FULL; then synchronous=NORMAL, each write synced by the store itself
 * before it resolves (see WalSync). Rejects with `newer-schema` or `not-a-store` (the file untouched) when the file is
 * not one this code may use.
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
    // From here on a commit goes to the WAL without an fsync on the event loop; WalSync syncs it before anyone is told.
    db.pragma('synchronous = NORMAL');
  } catch (error) {
    db.close();
    throw error;
  }
  const file = options.syncWal === undefined ? walFileSync(`${options.path}-wal`) : { sync: options.syncWal, close: async () => undefined };
  return new SqliteQuestionStore(db, options.path, options.owner, options.now ?? systemClock.date, latestVersion(), file);
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
  /** When this connection's commits are on disk: every write and read waits for it before it resolves. */
  private readonly sync: WalSync;
  private readonly file: { close: () => Promise<void> };
  /** The composite runs kept in the same file, on this connection (closed with it). */
  readonly runs: SqliteRunStore;

  /** Use `openSqliteQuestionStore`. */
  constructor(db: Database.Database, path: string, owner: string | undefined, now: () => Date, schemaVersion: number, file: { sync: SyncFile; close: () => Promise<void> }) {
    this.db = db;
    // PRAGMA data_version changes when another connection commits: its commit must be on disk before it is shown too.
    const dataVersion = db.prepare('PRAGMA data_version').pluck();
    let seen = dataVersion.get();
    this.sync = new WalSync(file.sync, () => {
      const now = dataVersion.get();
      if (now === seen) return false;
      seen = now;
      return true;
    });
    this.file = file;
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
    this.runs = new SqliteRunStore(db, { path, now, isClosed: () => this.closed, sync: this.sync });
  }

  async create(record: QuestionRecord, audit: AuditLine, ...more: AuditLine[]): Promise<void> {
    this.insert(record, [audit, ...more]);
    await this.onDisk();
  }

  /** `create` resolving once committed; `onDisk` resolves once a WAL sync covers it (see QuestionStore.createCommitted). */
  async createCommitted(record: QuestionRecord, audit: AuditLine, ...more: AuditLine[]): Promise<{ onDisk: Promise<void> }> {
    this.insert(record, [audit, ...more]);
    const onDisk = this.onDisk();
    onDisk.catch(() => undefined); // the caller hears of a failure through the promise it was given
    return { onDisk };
  }

  /** Inserts the question and its audit lines in one transaction, committed (not yet synced) when it returns. */
  private insert(record: QuestionRecord, lines: AuditLine[]): void {
    this.checkOpen();
    const row = encodeQuestion(record, this.owner);
    const at = stamp(this.now);
    const auditRows = lines.map((line) => encodeAudit({ ...line, questionId: row.id }, at));
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
    this.sync.committed();
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
    const record = write.immediate();
    this.sync.committed();
    await this.onDisk();
    return record;
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
    this.sync.committed();
    await this.onDisk();
  }

  async get(id: string): Promise<QuestionRecord | undefined> {
    this.checkOpen();
    const row = this.selectRow(id);
    await this.onDisk();
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
    const rows = statement.all(params) as object[];
    await this.onDisk();
    return rows.map((row) => decodeQuestion(row));
  }

  async auditTrail(id: string): Promise<AuditEntry[]> {
    this.checkOpen();
    const rows = this.statements.selectAudit.all(id) as object[];
    await this.onDisk();
    return rows.map((row) => decodeAudit(row));
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
    const count = write.immediate();
    this.sync.committed();
    await this.onDisk();
    return count;
  }

  /**
   * Harmless when already closed. A write already committed still resolves (the sync in flight ends first). The last
   * connection to close folds the WAL back into the file.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.sync.settle();
    await this.file.close();
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

  /**
   * Resolves once everything committed on this connection so far is on disk: after a write, before it is reported
   * done; after a read, before what it read is shown to anyone (a row committed, not yet synced, stays unseen).
   */
  private async onDisk(): Promise<void> {
    try {
      await this.sync.durable();
    } catch (error) {
      throw new QuestionStoreError('unavailable', syncFailure(this.path, error), { cause: error });
    }
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
