/** @module The in-memory question store against the shared contract, and what is particular to it. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { Transition } from '../../questions/question.js';
import { decodeQuestion, encodeQuestion } from '../question-row.js';
import { questionStoreContract } from '../testing/question-store-contract.js';
import { makeQuestion } from '../testing/question-fixtures.js';
import { createMemoryQuestionDatabase, openMemoryQuestionStore } from './memory-question-store.js';

questionStoreContract('memory', async () => {
  const database = createMemoryQuestionDatabase();
  return { open: async (options) => openMemoryQuestionStore({ ...options, database }), dispose: async () => {} };
});

const created = { actor: 'gateway', action: 'created' } as const;

test('each memory store has its own tables unless it is given shared ones', async () => {
  const one = openMemoryQuestionStore();
  const two = openMemoryQuestionStore();
  const question = makeQuestion();
  await one.create(question, created);
  assert.equal((await one.list()).length, 1);
  assert.deepEqual(await two.list(), []);
});

test('the memory store keeps values as JSON reads them back, as SQLite does: a Date in params comes back as its string', async () => {
  const database = createMemoryQuestionDatabase();
  const store = openMemoryQuestionStore({ database, owner: 'gw-1' });
  const question = makeQuestion({ params: { when: new Date('2026-01-02T03:04:05.000Z'), gone: undefined } as never });
  await store.create(question, created);
  assert.equal(database.questions.get(question.id)?.owner, 'gw-1');
  assert.deepEqual((await store.get(question.id))?.params, { when: '2026-01-02T03:04:05.000Z' });
  const withFunction = makeQuestion({ hostParams: (() => ({})) as never });
  await assert.rejects(store.create(withFunction, created), { name: 'QuestionStoreError', code: 'invalid-record', message: /hostParams is not JSON/ });
});

test('a transition, its audit line and a returned trail are copies: changing them afterwards changes nothing kept', async () => {
  const store = openMemoryQuestionStore();
  const question = makeQuestion();
  await store.create(question, created);
  const content = { confirm: true };
  const detail = { field: 'confirm' };
  const transition: Transition = {
    from: ['pending'],
    to: 'answered',
    answer: { action: 'accept', content },
    answeredBy: { kind: 'host', sessionId: 'host-1' },
    audit: { actor: 'host:host-1', action: 'answered', detail },
  };
  const returned = await store.transition(question.id, transition);
  const kept = structuredClone(returned);
  content.confirm = false;
  detail.field = 'changed';
  assert.ok(returned?.answer?.content);
  returned.answer.content.confirm = 'changed';
  assert.deepEqual(await store.get(question.id), kept);
  const trail = await store.auditTrail(question.id);
  assert.ok(trail[1]?.detail);
  trail[1].detail.field = 'changed by a reader';
  trail.pop();
  assert.deepEqual((await store.auditTrail(question.id))[1]?.detail, { field: 'confirm' });
});

test('records come back with their keys in the order the SQLite rows read back, after any transition', async () => {
  const store = openMemoryQuestionStore();
  const question = makeQuestion({ audienceReason: 'the host declared elicitation' });
  await store.create({ ...question, origin: { tool: 'desk_restart', upstream: 'desk' } }, created);
  await store.transition(question.id, {
    from: ['pending'],
    to: 'answered',
    answer: { action: 'accept', content: { confirm: true } },
    answeredBy: { kind: 'operator', name: 'ann' },
    hostParams: { message: 'Restart?' },
    audit: { actor: 'operator:ann', action: 'answered' },
  });
  const got = await store.get(question.id);
  assert.ok(got);
  assert.deepEqual(Object.keys(got), Object.keys(decodeQuestion(encodeQuestion(got, undefined))));
  assert.deepEqual(Object.keys(got), [
    'id',
    'method',
    'params',
    'hostParams',
    'origin',
    'route',
    'audience',
    'audienceReason',
    'state',
    'deadline',
    'answer',
    'answeredBy',
    'createdAt',
    'updatedAt',
    'settledAt',
  ]);
  assert.deepEqual(Object.keys(got.origin), ['tool', 'upstream'], 'JSON values keep the order they were given');
});
