/** @module The in-memory question store against the shared contract, and what is particular to it. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { questionStoreContract } from '../testing/question-store-contract.js';
import { makeQuestion } from '../testing/question-fixtures.js';
import { createMemoryQuestionDatabase, openMemoryQuestionStore } from './memory-question-store.js';

questionStoreContract('memory', async () => {
  const database = createMemoryQuestionDatabase();
  return { open: async (options) => openMemoryQuestionStore({ ...options, database }), dispose: async () => {} };
});

test('each memory store has its own tables unless it is given shared ones', async () => {
  const one = openMemoryQuestionStore();
  const two = openMemoryQuestionStore();
  const question = makeQuestion();
  await one.create(question, { actor: 'gateway', action: 'created' });
  assert.equal((await one.list()).length, 1);
  assert.deepEqual(await two.list(), []);
});

test('the memory store keeps rows as JSON text, as SQLite does: a Date in params comes back as its JSON string', async () => {
  const database = createMemoryQuestionDatabase();
  const store = openMemoryQuestionStore({ database, owner: 'gw-1' });
  const question = makeQuestion({ params: { when: new Date('2026-01-02T03:04:05.000Z') } as never });
  await store.create(question, { actor: 'gateway', action: 'created' });
  const row = database.questions.get(question.id)?.row;
  assert.equal(row?.params, '{"when":"2026-01-02T03:04:05.000Z"}');
  assert.equal(row?.owner, 'gw-1');
  assert.deepEqual((await store.get(question.id))?.params, { when: '2026-01-02T03:04:05.000Z' });
});
