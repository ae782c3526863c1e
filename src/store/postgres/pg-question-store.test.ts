/** @module The PostgreSQL question store against the shared contract (a fresh schema per test), and what is particular to a server: settings, owners kept, damage. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { escapeIdentifier } from 'pg';

import { makeQuestion, manualClock } from '../testing/question-fixtures.js';
import { questionStoreContract } from '../testing/question-store-contract.js';
import { MIGRATIONS } from './pg-schema.js';
import type { PostgresQuestionStore } from './pg-question-store.js';
import { openPostgresQuestionStore } from './pg-question-store.js';
import { freshSchema, pgSkipReason, requireTestPgUrl, withTestClient } from './testing/pg-test-database.js';

questionStoreContract(
  'postgres',
  async () => {
    const { schema, dispose } = freshSchema();
    return { open: (options) => openPostgresQuestionStore({ ...options, url: requireTestPgUrl(), schema, poolSize: 3 }), dispose };
  },
  { skip: pgSkipReason },
);

const created = { actor: 'gateway', action: 'created' } as const;
const deliver = { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' } } as const;

/** Runs `body` with a store on a fresh schema, and a way to edit its tables by hand. */
async function withStore(body: (store: PostgresQuestionStore, sql: (text: string, params?: unknown[]) => Promise<void>, schema: string) => Promise<void>): Promise<void> {
  const { schema, dispose } = freshSchema();
  const store = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema, owner: 'gw-1', now: manualClock().now, poolSize: 2 });
  const sql = (text: string, params: unknown[] = []) =>
    withTestClient(async (client) => {
      await client.query(`SET search_path TO ${escapeIdentifier(schema)}`);
      await client.query(text, params);
    });
  try {
    await body(store, sql, schema);
  } finally {
    await store.close();
    await dispose();
  }
}

describe('PostgreSQL question store', { skip: pgSkipReason ?? false }, () => {
  test('settings name the server without the password, the schema, its version and the pool size', async () => {
    await withStore(async (store, _sql, schema) => {
      const settings = store.settings();
      assert.equal(settings.schema, schema);
      assert.equal(settings.schemaVersion, MIGRATIONS.length);
      assert.equal(settings.poolSize, 2);
      assert.match(settings.serverVersion, /^\d+/);
      const password = new URL(requireTestPgUrl()).password;
      if (password !== '') assert.equal(settings.url.includes(password), false, settings.url);
    });
  });

  test('each question keeps the owner that created it, in its own column', async () => {
    await withStore(async (store, _sql, schema) => {
      const question = makeQuestion();
      await store.create(question, created);
      const owners = await withTestClient((client) => client.query(`SELECT owner FROM ${escapeIdentifier(schema)}.questions WHERE id = $1`, [question.id]));
      assert.deepEqual(owners.rows, [{ owner: 'gw-1' }]);
    });
  });

  test('a hand-damaged question gives a clear error for that question only; a transition of it writes nothing', async () => {
    await withStore(async (store, sql) => {
      const damaged = makeQuestion();
      const healthy = makeQuestion();
      await store.create(damaged, created);
      await store.create(healthy, created);
      await sql('UPDATE questions SET params = $1 WHERE id = $2', ['{"message": "Restart?', damaged.id]);
      await assert.rejects(store.get(damaged.id), (error: Error & { code?: string; questionId?: string }) => {
        assert.equal(error.code, 'corrupt-record');
        assert.equal(error.questionId, damaged.id);
        assert.match(error.message, new RegExp(`question ${damaged.id} is damaged: params holds invalid JSON`));
        return true;
      });
      await assert.rejects(store.list(), { code: 'corrupt-record', questionId: damaged.id });
      await assert.rejects(store.transition(damaged.id, deliver), { code: 'corrupt-record' });
      assert.deepEqual((await store.auditTrail(damaged.id)).map((entry) => entry.action), ['created'], 'the refused transition wrote nothing');
      assert.deepEqual(await store.get(healthy.id), healthy);
      assert.equal(await store.abandonOpen('restart'), 2, 'a damaged question is still abandoned, not left open for ever');
    });
  });

  test('other damage is named too: an unknown state, a column that disagrees, a damaged audit line', async () => {
    await withStore(async (store, sql) => {
      const [q1, q2, q3] = [makeQuestion(), makeQuestion(), makeQuestion()];
      for (const question of [q1, q2, q3]) await store.create(question, { ...created, detail: { ok: true } });
      await sql("UPDATE questions SET state = 'thinking' WHERE id = $1", [q1.id]);
      await sql("UPDATE questions SET upstream = 'elsewhere' WHERE id = $1", [q2.id]);
      await sql("UPDATE audit SET detail = '[1,2]' WHERE question_id = $1", [q3.id]);
      await assert.rejects(store.get(q1.id), { code: 'corrupt-record', message: /state is not a question state: "thinking"/ });
      await assert.rejects(store.get(q2.id), { code: 'corrupt-record', message: /upstream disagrees with origin/ });
      await assert.rejects(store.auditTrail(q3.id), { code: 'corrupt-record', message: /audit line \d+ of question .* detail must hold a JSON object/ });
      assert.deepEqual(await store.get(q3.id), q3);
    });
  });

  test('values PostgreSQL cannot hold are refused as invalid records, not driver errors: a NUL in text, the year 0000', async () => {
    await withStore(async (store) => {
      const nul = makeQuestion({ origin: { upstream: 'desk\u0000', tool: 'desk_restart' } });
      await assert.rejects(store.create(nul, created), { name: 'QuestionStoreError', code: 'invalid-record' });
      const ancient = makeQuestion({ createdAt: '0000-06-01T00:00:00.000Z', updatedAt: '0000-06-01T00:00:00.000Z', deadline: '0000-06-01T00:10:00.000Z' });
      await assert.rejects(store.create(ancient, created), { name: 'QuestionStoreError', code: 'invalid-record' });
      await assert.rejects(store.list({ before: '0000-06-01T00:00:00.000Z' }), { name: 'QuestionStoreError', code: 'invalid-filter' });
      assert.deepEqual(await store.list(), []);
    });
  });
});
