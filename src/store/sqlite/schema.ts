/** @module The SQLite store's schema: forward-only migrations, the file's version in `PRAGMA user_version`, and the checks before touching a file. */

import type BetterSqlite3 from 'better-sqlite3';

import { QuestionStoreError } from '../store-error.js';

/** One step forward. `version` is the schema version after it; steps are numbered 1, 2, 3… and never edited once released. */
export interface Migration {
  version: number;
  sql: string;
}

/** Marks a SQLite file as a Switchboard question store (`PRAGMA application_id`, "SBQS"). */
export const APPLICATION_ID = 0x53425153;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    // STRICT: a column holds only its declared type, even when someone edits the file by hand.
    // The rowid (implicit) is the insertion order: it breaks ties between equal creation times.
    sql: `
      CREATE TABLE questions (
        id TEXT PRIMARY KEY NOT NULL,
        method TEXT NOT NULL,
        state TEXT NOT NULL,
        upstream TEXT NOT NULL,
        tool TEXT,
        host_session TEXT,
        principal TEXT,
        route TEXT NOT NULL,
        audience TEXT NOT NULL,
        audience_reason TEXT,
        answered_by_kind TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        settled_at TEXT,
        deadline TEXT NOT NULL,
        owner TEXT,
        params TEXT NOT NULL,
        host_params TEXT,
        origin TEXT NOT NULL,
        answer TEXT,
        answered_by TEXT
      ) STRICT;
      CREATE INDEX questions_by_created ON questions (created_at);
      CREATE INDEX questions_by_state ON questions (state, created_at);
      CREATE INDEX questions_by_upstream ON questions (upstream, created_at);
      CREATE INDEX questions_by_tool ON questions (tool, created_at);
      CREATE INDEX questions_by_answerer ON questions (answered_by_kind, created_at);
      CREATE INDEX questions_by_method ON questions (method, created_at);
      CREATE INDEX questions_open_by_owner ON questions (owner, state);
      CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        question_id TEXT NOT NULL REFERENCES questions (id),
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        detail TEXT
      ) STRICT;
      CREATE INDEX audit_by_question ON audit (question_id, id);
    `,
  },
  {
    version: 2,
    // Composite runs (issue 6), beside the questions their approval steps ask. The record is the whole RunRecord as
    // JSON (runs are small and replaced whole); the columns are copies of its fields to filter and order on.
    // run_questions links a desk question to the run and step that asked it. No foreign key to questions: a run
    // is recorded by the composer, a question by the desk, and neither waits for the other.
    sql: `
      CREATE TABLE runs (
        id TEXT PRIMARY KEY NOT NULL,
        composite TEXT NOT NULL,
        state TEXT NOT NULL,
        host_session TEXT NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        record TEXT NOT NULL
      ) STRICT;
      CREATE INDEX runs_by_started ON runs (started_at);
      CREATE INDEX runs_by_state ON runs (state, started_at);
      CREATE INDEX runs_by_composite ON runs (composite, started_at);
      CREATE TABLE run_questions (
        question_id TEXT PRIMARY KEY NOT NULL,
        run_id TEXT NOT NULL REFERENCES runs (id),
        step_id TEXT NOT NULL
      ) STRICT;
      CREATE INDEX run_questions_by_run ON run_questions (run_id);
    `,
  },
];

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.length === 0 ? 0 : (migrations[migrations.length - 1]?.version ?? 0);
}

interface Header {
  version: number;
  applicationId: number;
  tables: number;
}

function readHeader(db: BetterSqlite3.Database): Header {
  return {
    version: Number(db.pragma('user_version', { simple: true })),
    applicationId: Number(db.pragma('application_id', { simple: true })),
    tables: Number(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").pluck().get()),
  };
}

/**
 * Refuses, without writing anything, a file this code must not touch: one from a newer Switchboard (`newer-schema`),
 * or another application's database (`not-a-store`). A new empty file passes.
 */
export function checkHeader(db: BetterSqlite3.Database, path: string, migrations: readonly Migration[] = MIGRATIONS): Header {
  const header = readHeader(db);
  const latest = latestVersion(migrations);
  if (header.applicationId !== APPLICATION_ID && (header.applicationId !== 0 || header.version !== 0 || header.tables !== 0)) {
    throw new QuestionStoreError(
      'not-a-store',
      `${path} is not a Switchboard question store (application id ${header.applicationId}, user version ${header.version}, ${header.tables} tables); point the store at another file`,
    );
  }
  if (header.version > latest) {
    throw new QuestionStoreError(
      'newer-schema',
      `${path} has question store schema version ${header.version}, but this Switchboard knows versions up to ${latest}: it was written by a newer Switchboard. Upgrade Switchboard, or point the store at another file; the file was left untouched`,
    );
  }
  return header;
}

/**
 * Brings the file to the latest version, each missing step in order, all in one write transaction (taken at once,
 * so two processes opening a new file together migrate it once). Returns the version it found.
 */
export function migrate(db: BetterSqlite3.Database, path: string, migrations: readonly Migration[] = MIGRATIONS): number {
  checkMigrations(migrations);
  const run = db.transaction(() => {
    const { version } = checkHeader(db, path, migrations);
    for (const migration of migrations) {
      if (migration.version <= version) continue;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }
    db.pragma(`application_id = ${APPLICATION_ID}`);
    return version;
  });
  return run.immediate();
}

/** The steps must be numbered 1, 2, 3… with nothing missing or repeated. */
export function checkMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`question store migration ${index + 1} is numbered ${migration.version}`);
  });
}
