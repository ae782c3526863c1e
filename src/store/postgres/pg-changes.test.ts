/**
 * @module Two gateway instances on one PostgreSQL hear each other's writes (LISTEN/NOTIFY, ids only), go on hearing after
 * their listening connection is cut, and two desks on them carry an operator's answer from one instance to the call
 * waiting on the other.
 */

import { tokenOperator } from '../../access/operator-principal.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { silentLogger } from '../../core/log.js';
import { eventually } from '../../core/testing/deadlines.js';
import type { Transition } from '../../questions/question.js';
import { QuestionDesk } from '../../questions/desk.js';
import { FakeAsker, fakeHost, formQuestion } from '../../questions/testing/desk-fakes.js';
import { makeQuestion } from '../testing/question-fixtures.js';
import type { PostgresQuestionStore } from './pg-question-store.js';
import { pgSkipReason, withTestClient } from './testing/pg-test-database.js';
import { withTwoInstances as withInstances } from './testing/two-instances.js';

const created = { actor: 'gateway', action: 'created' } as const;
const deliver: Transition = { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' } };

/** Resolves once `heard` gets what `writer` writes: LISTEN runs on a connection of its own, and a write before it is not heard. */
async function listening(writer: PostgresQuestionStore, heard: string[], who: string): Promise<void> {
  await eventually(async () => {
    const probe = makeQuestion();
    await writer.create(probe, created);
    return heard.includes(probe.id);
  }, `${who} listening`);
}

const NAMES = { a: `sb-changes-a-${process.pid}`, b: `sb-changes-b-${process.pid}` };
const withTwoInstances = (body: Parameters<typeof withInstances>[0]) => withInstances(body, { poolSize: 3, names: NAMES });

describe('PostgreSQL store: change notifications between instances', { skip: pgSkipReason ?? false }, () => {
  test('each instance hears the questions the other creates and changes, by id, once the write commits', async () => {
    await withTwoInstances(async (a, b) => {
      const heardByB: string[] = [];
      const heardByA: string[] = [];
      const stopB = b.changes((id) => heardByB.push(id));
      a.changes((id) => heardByA.push(id));
      await listening(a, heardByB, 'B');
      await listening(b, heardByA, 'A');
      const question = makeQuestion();
      await a.create(question, created);
      await eventually(() => heardByB.includes(question.id), 'B hears the creation');
      await b.transition(question.id, deliver);
      await eventually(() => heardByA.filter((id) => id === question.id).length >= 2, 'A hears the creation and B\'s change');
      stopB();
      const later = makeQuestion();
      await a.create(later, created);
      await eventually(() => heardByA.includes(later.id), 'A hears its own write too');
      assert.equal(heardByB.includes(later.id), false, 'after unsubscribing, B is told nothing');
    });
  });

  test('a listening connection that is cut is made again: later writes are heard', async () => {
    await withTwoInstances(async (a, b) => {
      const heard: string[] = [];
      b.changes((id) => heard.push(id));
      await listening(a, heard, 'B');
      const cut = await withTestClient(async (client) => {
        const { rows } = await client.query<{ cut: boolean }>(
          "SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'",
          [NAMES.b],
        );
        return rows.length;
      });
      assert.equal(cut, 1, 'the listening connection was found and cut');
      await eventually(async () => {
        const probe = makeQuestion();
        await a.create(probe, created);
        return heard.includes(probe.id);
      }, 'B hears again on a new connection');
    });
  });

  test('two desks on one database: an operator answers on B, the call waiting on A gets the answer, written once', async () => {
    await withTwoInstances(async (a, b) => {
      const deskA = new QuestionDesk({ store: a, logger: silentLogger, operatorAvailable: true, owner: 'gw-a', recheckMs: 200 });
      const deskB = new QuestionDesk({ store: b, logger: silentLogger, operatorAvailable: true, owner: 'gw-b', recheckMs: 200 });
      const host = fakeHost();
      const asker = new FakeAsker();
      const schema = { type: 'object', properties: { ticket: { type: 'string' } }, required: ['ticket'] };
      try {
        const opened = await deskA.open(formQuestion(deskA.seat(host), asker, schema));
        assert.ok(opened);
        const answered = await deskB.answer(opened.record.id, { action: 'accept', content: { ticket: 'CHG-9' } }, tokenOperator('bob'));
        assert.equal(answered.ok, true);
        await eventually(() => asker.replies.length > 0, 'A relays the answer given on B');
        assert.deepEqual(asker.replies, [{ id: 41, result: { action: 'accept', content: { ticket: 'CHG-9' } }, answeredBy: 'the operator bob' }]);
        assert.deepEqual((await a.auditTrail(opened.record.id)).map((line) => line.action), ['created', 'delivered', 'answered']);
      } finally {
        await deskA.close();
        await deskB.close();
      }
    });
  });
});
