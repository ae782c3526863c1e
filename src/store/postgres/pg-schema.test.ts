/** @module The PostgreSQL store's migrations: run once when instances start together (the advisory lock), all or nothing, and refused without a change on a schema from a newer Switchboard or of another application. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Client, escapeIdentifier } from 'pg';

import type { Migration } from './pg-schema.js';
import { MIGRATIONS, checkMigrations, latestVersion, migrate } from './pg-schema.js';
import { openPostgresQuestionStore } from './pg-question-store.js';
import { freshSchema, pgSkipReason, requireTestPgUrl, withTestClient } from './testing/pg-test-database.js';

/** Runs `work` with `count` connections of their own to the test server. */
async function withClients<T>(count: number, work: (clients: Client[]) => Promise<T>): Promise<T> {
  const clients = Array.from({ length: count }, () => new Client({ connectionString: requireTestPgUrl() }));
  await Promise.all(clients.map((client) => client.connect()));
  try {
    return await work(clients);
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

async function tablesOf(schema: string): Promise<string[]> {
  return withTestClient(async (client) => {
    const { rows } = await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename', [schema]);
    return rows.map((row) => row.tablename);
  });
}

async function schemaExists(schema: string): Promise<boolean> {
  return withTestClient(async (client) => (await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount === 1);
}

async function versionsOf(schema: string): Promise<number[]> {
  return withTestClient(async (client) => {
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${escapeIdentifier(schema)}.switchboard_migrations ORDER BY version`);
    return rows.map((row) => row.version);
  });
}

test('the steps are numbered 1, 2, 3… with nothing missing', () => {
  checkMigrations(MIGRATIONS);
  assert.equal(latestVersion(), MIGRATIONS.length);
  assert.throws(() => checkMigrations([{ version: 2, sql: '' }]), /migration 1 is numbered 2/);
});

describe('PostgreSQL store migrations', { skip: pgSkipReason ?? false }, () => {
  test('a new schema is created with every table and its version recorded', async () => {
    const { schema, dispose } = freshSchema();
    try {
      const store = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema });
      await store.close();
      assert.deepEqual(await tablesOf(schema), ['audit', 'instances', 'parked_calls', 'questions', 'run_questions', 'runs', 'switchboard_migrations']);
      assert.deepEqual(await versionsOf(schema), MIGRATIONS.map((migration) => migration.version));
      const again = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema });
      await again.close();
      assert.deepEqual(await versionsOf(schema), MIGRATIONS.map((migration) => migration.version), 'opening again changes nothing');
    } finally {
      await dispose();
    }
  });

  test('instances starting together migrate once: the others wait for the lock, then find the steps done', async () => {
    const { schema, dispose } = freshSchema();
    try {
      // A step that takes a while and counts its own runs: without the lock, a second run would fail or count twice.
      const slow: Migration[] = [{ version: 1, sql: 'SELECT pg_sleep(0.3); CREATE TABLE runs_of_step (n int); INSERT INTO runs_of_step VALUES (1);' }];
      const found = await withClients(4, (clients) => Promise.all(clients.map((client) => migrate(client, schema, schema, slow))));
      assert.deepEqual(found.toSorted(), [0, 1, 1, 1], 'one found version 0 and migrated; the others found version 1');
      const runs = await withTestClient((client) => client.query(`SELECT count(*)::int AS n FROM ${escapeIdentifier(schema)}.runs_of_step`));
      assert.deepEqual(runs.rows, [{ n: 1 }]);
      assert.deepEqual(await versionsOf(schema), [1]);
    } finally {
      await dispose();
    }
  });

  test('stores opening at once on a new schema all open, and the schema is migrated once', async () => {
    const { schema, dispose } = freshSchema();
    try {
      const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresQuestionStore({ url: requireTestPgUrl(), schema, poolSize: 1 })));
      for (const store of stores) await store.close();
      assert.deepEqual(await versionsOf(schema), MIGRATIONS.map((migration) => migration.version));
    } finally {
      await dispose();
    }
  });

  test('a failing step leaves the database as it was: no schema, no table, no version', async () => {
    const { schema, dispose } = freshSchema();
    const steps: Migration[] = [
      { version: 1, sql: 'CREATE TABLE first (n int)' },
      { version: 2, sql: 'CREATE TABLE second (n int); SELECT 1 / 0;' },
    ];
    try {
      await withClients(1, async ([client]) => {
        await assert.rejects(migrate(client!, schema, schema, steps), /division by zero/);
        assert.equal(await schemaExists(schema), false, 'the schema made for the steps is gone too');
        // From version 1, a failing step 2 keeps version 1 exactly.
        await migrate(client!, schema, schema, steps.slice(0, 1));
        await assert.rejects(migrate(client!, schema, schema, steps), /division by zero/);
        assert.deepEqual(await tablesOf(schema), ['first', 'switchboard_migrations']);
        assert.deepEqual(await versionsOf(schema), [1]);
        // The client is usable afterwards: the transaction was rolled back.
        assert.equal((await client!.query('SELECT 1 AS one')).rows[0].one, 1);
      });
    } finally {
      await dispose();
    }
  });

  test('a schema from a newer Switchboard is refused (newer-schema) and left untouched', async () => {
    const { schema, dispose } = freshSchema();
    try {
      await (await openPostgresQuestionStore({ url: requireTestPgUrl(), schema })).close();
      await withTestClient((client) => client.query(`INSERT INTO ${escapeIdentifier(schema)}.switchboard_migrations (version) VALUES ($1)`, [MIGRATIONS.length + 1]));
      await assert.rejects(openPostgresQuestionStore({ url: requireTestPgUrl(), schema }), (error: Error & { code?: string }) => {
        assert.equal(error.name, 'QuestionStoreError');
        assert.equal(error.code, 'newer-schema');
        assert.match(error.message, new RegExp(`schema ${schema} of postgres://.* has question store schema version ${MIGRATIONS.length + 1}, .*up to ${MIGRATIONS.length}`));
        return true;
      });
      assert.deepEqual(await versionsOf(schema), [...MIGRATIONS.map((migration) => migration.version), MIGRATIONS.length + 1]);
    } finally {
      await dispose();
    }
  });

  test('a schema holding another application\'s tables is refused (not-a-store) and left untouched', async () => {
    const { schema, dispose } = freshSchema();
    try {
      await withTestClient((client) => client.query(`CREATE SCHEMA ${escapeIdentifier(schema)}; CREATE TABLE ${escapeIdentifier(schema)}.invoices (id int)`));
      await assert.rejects(openPostgresQuestionStore({ url: requireTestPgUrl(), schema }), {
        name: 'QuestionStoreError',
        code: 'not-a-store',
        message: /holds tables \(invoices\) but no switchboard_migrations: it is not a Switchboard question store; point store\.schema at another schema/,
      });
      assert.deepEqual(await tablesOf(schema), ['invoices']);
    } finally {
      await dispose();
    }
  });
});
