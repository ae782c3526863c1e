/** @module The QuestionStore contract, lifecycle: abandoning what a previous run left open, and closing. */

import assert from 'node:assert/strict';

import type { Scenario } from './contract-kit.js';
import { created, rejectsWith, deliver, answerAsHost } from './contract-kit.js';
import { makeQuestion } from './question-fixtures.js';

export function lifecycleScenarios(scenario: Scenario): void {
  scenario('abandonOpen settles each open question as abandoned by the gateway, with a line each', async ({ clock, open }) => {
    const store = await open();
    const pending = makeQuestion();
    const delivered = makeQuestion();
    const answered = makeQuestion();
    for (const question of [pending, delivered, answered]) await store.create(question, created);
    await store.transition(delivered.id, deliver());
    await store.transition(answered.id, answerAsHost());
    const answeredBefore = await store.get(answered.id);
    const at = clock.advance();
    assert.equal(await store.abandonOpen('the gateway restarted'), 2);
    for (const question of [pending, delivered]) {
      const got = await store.get(question.id);
      assert.equal(got?.state, 'abandoned');
      assert.deepEqual(got?.answeredBy, { kind: 'gateway', reason: 'the gateway restarted' });
      assert.equal(got?.answer, undefined);
      assert.equal(got?.settledAt, at);
      assert.equal(got?.updatedAt, at);
      assert.deepEqual((await store.auditTrail(question.id)).at(-1), {
        questionId: question.id,
        at,
        actor: 'gateway',
        action: 'abandoned',
        detail: { reason: 'the gateway restarted' },
      });
    }
    assert.deepEqual(await store.get(answered.id), answeredBefore);
    assert.equal((await store.auditTrail(answered.id)).length, 2);
    assert.equal(await store.abandonOpen('again'), 0);
    await rejectsWith(store.abandonOpen(''), 'invalid-record');
  });

  scenario('abandonOpen with an owner touches only the questions that instance created', async ({ open }) => {
    const a = await open({ owner: 'gw-a' });
    const b = await open({ owner: 'gw-b' });
    const anonymous = await open();
    const [qa, qb, qn] = [makeQuestion(), makeQuestion(), makeQuestion()];
    await a.create(qa, created);
    await b.create(qb, created);
    await anonymous.create(qn, created);
    assert.equal(await b.abandonOpen('gw-a restarted', 'gw-a'), 1);
    assert.deepEqual([(await b.get(qa.id))?.state, (await a.get(qb.id))?.state, (await a.get(qn.id))?.state], ['abandoned', 'pending', 'pending']);
    assert.equal(await a.abandonOpen('every instance restarted'), 2);
    assert.equal((await a.get(qb.id))?.state, 'abandoned');
  });

  scenario('closing twice is harmless; a closed store refuses work (closed) and loses nothing', async ({ open }) => {
    const store = await open();
    const question = makeQuestion();
    await store.create(question, created);
    await store.close();
    await store.close();
    await rejectsWith(store.get(question.id), 'closed');
    await rejectsWith(store.create(makeQuestion(), created), 'closed');
    await rejectsWith(store.transition(question.id, deliver()), 'closed');
    await rejectsWith(store.audit({ questionId: question.id, actor: 'gateway', action: 'viewed' }), 'closed');
    await rejectsWith(store.list(), 'closed');
    await rejectsWith(store.auditTrail(question.id), 'closed');
    await rejectsWith(store.abandonOpen('stop'), 'closed');
    const again = await open();
    assert.deepEqual(await again.get(question.id), question);
  });
}
