/** @module Two gateway instances on one PostgreSQL, as two stores with pools of their own: the compare-and-set lets exactly one of two racing transitions win, `abandonOpen` by owner touches only that owner's questions, and a connection lost in the middle of a transition is reported as `unavailable` with nothing written. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { escapeIdentifier } from 'pg';

import type { Transition } from '../../questions/question.js';
import { makeQuestion, manualClock } from '../testing/question-fixtures.js';
import { openPostgresQuestionStore } from './pg-question-store.js';
import { freshSchema, pgSkipReason, uniqueSchemaName, withTestClient, testPgUrlNamed } from './testing/pg-test-database.js';
import { withTwoInstances as withInstances } from './testing/two-instances.js';

const created = { actor: 'gateway', action: 'created' } as const;
const deliver: Transition = { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' } };

function answer(by: string): Transition {
  return {
    from: ['delivered'],
    to: 'answered',
    answer: { action: 'accept', content: { ticket: by } },
    answeredBy: { kind: 'operator', name: by },
    audit: { actor: `operator:${by}`, action: 'answered' },
  };
}

/** Two instances on one fresh schema, each with its own pool, on one manual clock. */
function withTwoInstances(body: Parameters<typeof withInstances>[0]): Promise<void> {
  return withInstances(body, { poolSize: 4, now: manualClock().now });
}

describe('PostgreSQL store: instances racing', { skip: pgSkipReason ?? false }, () => {
  test('two instances answering one question at the same moment: exactly one wins, once, and both read the winner', async () => {
    await withTwoInstances(async (a, b, schema) => {
      for (let round = 0; round < 10; round += 1) {
        const question = makeQuestion();
        await a.create(question, created);
        await a.transition(question.id, deliver);
        // A third connection holds the row, so both transitions are sure to be waiting on it together; then lets go.
        await withTestClient(async (holder) => {
          await holder.query('BEGIN');
          await holder.query(`SELECT id FROM ${escapeIdentifier(schema)}.questions WHERE id = $1 FOR UPDATE`, [question.id]);
          const racing = Promise.all([a.transition(question.id, answer('ann')), b.transition(question.id, answer('bob'))]);
          await waitForLockWaiters(schema, 2);
          await holder.query('COMMIT');
          const outcomes = await racing;
          const winners = outcomes.filter((outcome) => outcome !== undefined);
          assert.equal(winners.length, 1, `round ${round}: ${JSON.stringify(outcomes)}`);
          const winner = winners[0];
          assert.deepEqual(await a.get(question.id), winner);
          assert.deepEqual(await b.get(question.id), winner);
          const answered = (await b.auditTrail(question.id)).filter((entry) => entry.action === 'answered');
          assert.deepEqual(answered.map((entry) => entry.actor), [`operator:${winner?.answeredBy?.kind === 'operator' ? winner.answeredBy.name : '?'}`]);
        });
      }
    });
  });

  test('many questions raced without help: each has one winner and one answered line', async () => {
    await withTwoInstances(async (a, b) => {
      const questions = Array.from({ length: 20 }, () => makeQuestion({ state: 'delivered' }));
      for (const question of questions) await a.create(question, created);
      const outcomes = await Promise.all(questions.map((question) => Promise.all([a.transition(question.id, answer('ann')), b.transition(question.id, answer('bob'))])));
      for (const [index, pair] of outcomes.entries()) {
        assert.equal(pair.filter((outcome) => outcome !== undefined).length, 1, `question ${index}`);
        const trail = await a.auditTrail(questions[index]!.id);
        assert.deepEqual(trail.map((entry) => entry.action), ['created', 'answered']);
      }
    });
  });

  test('abandonOpen by owner settles only that instance\'s open questions; the other instance\'s and settled ones stay', async () => {
    await withTwoInstances(async (a, b) => {
      const [aPending, aDelivered, aAnswered, bPending] = [makeQuestion(), makeQuestion(), makeQuestion(), makeQuestion()];
      for (const question of [aPending, aDelivered, aAnswered]) await a.create(question, created);
      await b.create(bPending, created);
      await a.transition(aDelivered.id, deliver);
      await a.transition(aAnswered.id, deliver);
      await b.transition(aAnswered.id, answer('bob'));
      // Instance b abandons a's questions (as a survivor will once a's death is noticed).
      assert.equal(await b.abandonOpen('gw-a stopped', 'gw-a'), 2);
      assert.deepEqual(
        await Promise.all([aPending, aDelivered, aAnswered, bPending].map(async (question) => (await b.get(question.id))?.state)),
        ['abandoned', 'abandoned', 'answered', 'pending'],
      );
      assert.deepEqual((await a.auditTrail(aDelivered.id)).at(-1), {
        questionId: aDelivered.id,
        at: '2026-03-01T09:00:00.000Z',
        actor: 'gateway',
        action: 'abandoned',
        detail: { reason: 'gw-a stopped' },
      });
      assert.equal(await a.abandonOpen('again', 'gw-a'), 0);
      assert.equal(await a.abandonOpen('nobody', 'gw-nobody'), 0);
      assert.equal((await a.get(bPending.id))?.state, 'pending');
    });
  });

  test('abandonOpen skips a row another transaction holds (SKIP LOCKED) and takes it in a later pass once the holder rolls back; an answer committed meanwhile stands', async () => {
    await withTwoInstances(async (a, b, schema) => {
      const [held, answeredMeanwhile, free] = [makeQuestion({ state: 'delivered' }), makeQuestion({ state: 'delivered' }), makeQuestion({ state: 'delivered' })];
      for (const question of [held, answeredMeanwhile, free]) await a.create(question, created);
      const table = `${escapeIdentifier(schema)}.questions`;
      await withTestClient(async (first) => {
        await withTestClient(async (second) => {
          await first.query('BEGIN');
          await first.query(`SELECT id FROM ${table} WHERE id = $1 FOR UPDATE`, [held.id]);
          await second.query('BEGIN');
          await second.query(`SELECT id FROM ${table} WHERE id = $1 FOR UPDATE`, [answeredMeanwhile.id]);
          const sweeping = b.abandonOpen('gw-a died', 'gw-a');
          // The sweep takes the free row at once, without waiting behind the two locks.
          for (let tries = 0; (await b.get(free.id))?.state !== 'abandoned'; tries += 1) {
            assert.ok(tries < 200, 'the free row was abandoned while the others were locked');
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          // One holder writes an answer and commits, the other gives up.
          await second.query(`UPDATE ${table} SET state = 'answered' WHERE id = $1`, [answeredMeanwhile.id]);
          await second.query('COMMIT');
          await first.query('ROLLBACK');
          assert.equal(await sweeping, 2);
        });
      });
      assert.deepEqual(
        await Promise.all([held, answeredMeanwhile, free].map(async (question) => (await a.get(question.id))?.state)),
        ['abandoned', 'answered', 'abandoned'],
      );
    });
  });

  test('a connection lost in the middle of a transition is reported as unavailable, writes nothing, and the next call works', async () => {
    const { schema, dispose } = freshSchema();
    const name = `sb-lost-${uniqueSchemaName().slice(-12)}`;
    const store = await openPostgresQuestionStore({ url: testPgUrlNamed(name), schema, poolSize: 2 });
    try {
      const question = makeQuestion({ state: 'delivered' });
      await store.create(question, created);
      await withTestClient(async (holder) => {
        await holder.query('BEGIN');
        await holder.query(`SELECT id FROM ${escapeIdentifier(schema)}.questions WHERE id = $1 FOR UPDATE`, [question.id]);
        // Caught at once: it fails while this test is still waiting on the server.
        const waiting = store.transition(question.id, answer('ann')).then(
          () => assert.fail('the transition went through'),
          (error: unknown) => error,
        );
        await waitForLockWaiters(schema, 1);
        await holder.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", [name]);
        const error = (await waiting) as Error & { code?: string };
        assert.equal(error.name, 'QuestionStoreError');
        assert.equal(error.code, 'unavailable');
        assert.match(error.message, /PostgreSQL store .* is unavailable: terminating connection/);
        await holder.query('ROLLBACK');
      });
      assert.equal((await store.get(question.id))?.state, 'delivered', 'nothing was written, and the pool opened a new connection');
      assert.equal((await store.transition(question.id, answer('ann')))?.state, 'answered');
    } finally {
      await store.close();
      await dispose();
    }
  });
});

/** Waits until `count` sessions wait on a lock while running a statement on `schema` (each transition is then blocked on the row). */
async function waitForLockWaiters(schema: string, count: number): Promise<void> {
  await withTestClient(async (client) => {
    for (let attempt = 0; attempt < 500; attempt += 1) {
      const { rows } = await client.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid
         WHERE NOT l.granted AND s.query LIKE $1`,
        [`%${schema}%`],
      );
      if ((rows[0]?.waiting ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`fewer than ${count} transitions waited on the row lock`);
  });
}
