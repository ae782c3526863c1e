/** @module The PostgreSQL run store (the question store's `runs`) against the shared contract, a fresh schema per test; and its owner column. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { escapeIdentifier } from 'pg';

import { runStoreContract } from '../testing/run-store-contract.js';
import { makeRun } from '../testing/run-fixtures.js';
import { openPostgresQuestionStore } from './pg-question-store.js';
import { freshSchema, pgSkipReason, requireTestPgUrl, withTestClient } from './testing/pg-test-database.js';

runStoreContract(
  'postgres',
  async () => {
    const { schema, dispose } = freshSchema();
    return {
      open: async (options) => {
        const questions = await openPostgresQuestionStore({ ...options, url: requireTestPgUrl(), schema, poolSize: 3 });
        return { store: questions.runs, close: () => questions.close() };
      },
      dispose,
    };
  },
  { skip: pgSkipReason },
);

test('a run keeps the instance that created it, and closing the question store closes its runs', { skip: pgSkipReason ?? false }, async () => {
  const { schema, dispose } = freshSchema();
  const store = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema, owner: 'gw-7', poolSize: 1 });
  try {
    const run = makeRun();
    await store.runs.create(run);
    await store.runs.update({ ...run, state: 'completed', finishedAt: '2026-03-01T09:05:00.000Z' });
    const { rows } = await withTestClient((client) => client.query(`SELECT owner, state FROM ${escapeIdentifier(schema)}.runs WHERE id = $1`, [run.id]));
    assert.deepEqual(rows, [{ owner: 'gw-7', state: 'completed' }]);
    await store.close();
    await assert.rejects(store.runs.get(run.id), { name: 'RunStoreError', code: 'closed' });
  } finally {
    await store.close();
    await dispose();
  }
});
