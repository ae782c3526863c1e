/** @module The PostgreSQL store's schema: forward-only migrations recorded in `switchboard_migrations`, run in one transaction under an advisory lock (two instances starting together migrate once), and the checks before touching a schema. */

import { escapeIdentifier } from 'pg';
import type { ClientBase } from 'pg';

import { QuestionStoreError } from '../store-error.js';
import { MIGRATIONS_TABLE } from './pg-sql.js';

/** One step forward. `version` is the schema version after it; steps are numbered 1, 2, 3… and never edited once released. */
export interface Migration {
  version: number;
  sql: string;
}

/** The advisory lock class ("SBQS") taken around migrating; the lock's object is the hash of the schema's name. */
export const MIGRATION_LOCK_CLASS = 0x53425153;

/**
 * Each step runs with `search_path` set to the store's schema, so it names tables plainly.
 * Times are `timestamptz` (read back as `toISOString()` text); JSON is `text`, kept exactly as written (`jsonb` would
 * reorder keys and drop duplicates, and exact round trips are part of the contract). `seq` is the insertion order:
 * it breaks ties between equal times, as SQLite's rowid does. `owner` is the gateway instance that wrote the row.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE questions (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        method text NOT NULL,
        state text NOT NULL,
        upstream text NOT NULL,
        tool text,
        host_session text,
        principal text,
        route text NOT NULL,
        audience text NOT NULL,
        audience_reason text,
        answered_by_kind text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        settled_at timestamptz,
        deadline timestamptz NOT NULL,
        owner text,
        params text NOT NULL,
        host_params text,
        origin text NOT NULL,
        answer text,
        answered_by text
      );
      CREATE INDEX questions_by_created ON questions (created_at, seq);
      CREATE INDEX questions_by_state ON questions (state, created_at, seq);
      CREATE INDEX questions_by_upstream ON questions (upstream, created_at, seq);
      CREATE INDEX questions_by_tool ON questions (tool, created_at, seq);
      CREATE INDEX questions_by_answerer ON questions (answered_by_kind, created_at, seq);
      CREATE INDEX questions_by_method ON questions (method, created_at, seq);
      CREATE INDEX questions_open_by_owner ON questions (owner, state);
      CREATE TABLE audit (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        question_id text NOT NULL REFERENCES questions (id),
        at timestamptz NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        detail text
      );
      CREATE INDEX audit_by_question ON audit (question_id, id);
      CREATE TABLE runs (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        composite text NOT NULL,
        state text NOT NULL,
        host_session text NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        owner text,
        record text NOT NULL
      );
      CREATE INDEX runs_by_started ON runs (started_at, seq);
      CREATE INDEX runs_by_state ON runs (state, started_at, seq);
      CREATE INDEX runs_by_composite ON runs (composite, started_at, seq);
      CREATE INDEX runs_running_by_owner ON runs (owner, state);
      CREATE TABLE run_questions (
        question_id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES runs (id),
        step_id text NOT NULL
      );
      CREATE INDEX run_questions_by_run ON run_questions (run_id);
      -- Every instance sharing the schema hears of each question created or changed, by id only, once the writing
      -- transaction commits (changeChannel in pg-changes.ts names the channel the same way).
      CREATE FUNCTION question_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM pg_notify('sbq_' || left(md5(TG_TABLE_SCHEMA), 16), NEW.id);
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER questions_changed AFTER INSERT OR UPDATE ON questions FOR EACH ROW EXECUTE FUNCTION question_changed();
      -- The gateway instances sharing the schema (pg-instances.ts): each holds an advisory lock on its id for its life.
      CREATE TABLE instances (
        id text PRIMARY KEY,
        state text NOT NULL,
        started_at timestamptz NOT NULL,
        heartbeat_at timestamptz NOT NULL,
        ended_at timestamptz,
        ended_by text
      );
    `,
  },
  {
    version: 2,
    sql: `
      -- Where the other instances reach this one (cluster.advertise): forwarded requests go there. NULL: not reachable.
      ALTER TABLE instances ADD COLUMN advertise text;
      -- The parked calls of 2026-07-28 hosts (pg-parked-calls.ts): which instance holds each, for whom (a principal
      -- digest), until when; parked until its handle is used once (resumed), or gone with its call or its instance.
      CREATE TABLE parked_calls (
        id text PRIMARY KEY,
        owner text NOT NULL,
        upstream text NOT NULL,
        method text NOT NULL,
        principal text NOT NULL,
        issued_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        state text NOT NULL,
        ended_at timestamptz
      );
      CREATE INDEX parked_calls_open_by_owner ON parked_calls (owner) WHERE state = 'parked';
      CREATE INDEX parked_calls_by_expiry ON parked_calls (expires_at);
    `,
  },
];

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.at(-1)?.version ?? 0;
}

/** The steps must be numbered 1, 2, 3… with nothing missing or repeated. */
export function checkMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`question store migration ${index + 1} is numbered ${migration.version}`);
  });
}

/** What a schema holds before we touch it. */
export interface SchemaState {
  exists: boolean;
  /** The highest migration recorded; 0 without the migrations table. */
  version: number;
  /** Whether `switchboard_migrations` is there. */
  ours: boolean;
  tables: string[];
}

/** Reads what `schema` holds, writing nothing. */
export async function readSchemaState(client: ClientBase, schema: string): Promise<SchemaState> {
  const { rows } = await client.query<{ exists: boolean; tables: string[] }>(
    `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS exists,
            ARRAY(SELECT tablename::text FROM pg_tables WHERE schemaname = $1 ORDER BY tablename) AS tables`,
    [schema],
  );
  const exists = rows[0]?.exists ?? false;
  const tables = rows[0]?.tables ?? [];
  const ours = tables.includes(MIGRATIONS_TABLE);
  let version = 0;
  if (ours) {
    const result = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${escapeIdentifier(schema)}.${MIGRATIONS_TABLE}`);
    version = result.rows[0]?.version ?? 0;
  }
  return { exists, version, ours, tables };
}

/**
 * Refuses, without writing anything, a schema this code must not touch: one from a newer Switchboard (`newer-schema`), or
 * one holding tables without the migrations table (`not-a-store`: another application's). A missing or empty schema passes.
 */
export function checkSchemaState(state: SchemaState, where: string, migrations: readonly Migration[] = MIGRATIONS): void {
  const latest = latestVersion(migrations);
  if (!state.ours && state.tables.length > 0) {
    const shown = state.tables.slice(0, 5).join(', ') + (state.tables.length > 5 ? ', …' : '');
    throw new QuestionStoreError(
      'not-a-store',
      `${where} holds tables (${shown}) but no ${MIGRATIONS_TABLE}: it is not a Switchboard question store; point store.schema at another schema (a missing or empty one is set up)`,
    );
  }
  if (state.version > latest) {
    throw new QuestionStoreError(
      'newer-schema',
      `${where} has question store schema version ${state.version}, but this Switchboard knows versions up to ${latest}: it was written by a newer Switchboard. Upgrade Switchboard, or point the store at another schema; nothing was changed`,
    );
  }
}

/**
 * Brings `schema` to the latest version in one transaction, under a transaction-scoped advisory lock on the schema's name:
 * a second instance starting at the same time waits for the lock, then finds the steps done. Creates the schema when
 * missing. A failing step rolls everything back (PostgreSQL's DDL is transactional). Resolves the version it found.
 */
export async function migrate(client: ClientBase, schema: string, where: string, migrations: readonly Migration[] = MIGRATIONS): Promise<number> {
  checkMigrations(migrations);
  const name = escapeIdentifier(schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, schema]);
    const state = await readSchemaState(client, schema);
    checkSchemaState(state, where, migrations);
    if (state.version < latestVersion(migrations)) {
      if (!state.exists) await client.query(`CREATE SCHEMA ${name}`);
      await client.query(`SET LOCAL search_path TO ${name}`);
      if (!state.ours) {
        await client.query(`CREATE TABLE ${MIGRATIONS_TABLE} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      }
      for (const migration of migrations) {
        if (migration.version <= state.version) continue;
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (version) VALUES ($1)`, [migration.version]);
      }
    }
    await client.query('COMMIT');
    return state.version;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
