/** @module The QuestionStore contract, state changes: compare-and-set transitions and the race between instances. */

import assert from 'node:assert/strict';

import type { QuestionState, Transition } from '../../questions/question.js';
import type { Scenario } from './contract-kit.js';
import { created, rejectsWith, deliver, answerAsHost } from './contract-kit.js';
import { makeQuestion } from './question-fixtures.js';

export function transitionScenarios(scenario: Scenario): void {
  scenario('transition applies while the state is one of from: new fields, updatedAt, settledAt, and its audit line', async ({ clock, open }) => {
    const store = await open();
    const question = makeQuestion();
    const t0 = clock.iso();
    await store.create(question, created);
    const t1 = clock.advance();
    const delivered = await store.transition(
      question.id,
      deliver({ hostParams: { message: 'Restart? (2025-06-18 form)' }, audience: 'both', audienceReason: 'operators watch desk' }),
    );
    assert.deepEqual(delivered, {
      ...question,
      hostParams: { message: 'Restart? (2025-06-18 form)' },
      audience: 'both',
      audienceReason: 'operators watch desk',
      state: 'delivered',
      updatedAt: t1,
    });
    assert.deepEqual(await store.get(question.id), delivered);

    const t2 = clock.advance();
    const answered = await store.transition(question.id, answerAsHost());
    assert.deepEqual(answered, {
      ...delivered,
      state: 'answered',
      answer: { action: 'accept', content: { confirm: true } },
      answeredBy: { kind: 'host', sessionId: 'host-1' },
      updatedAt: t2,
      settledAt: t2,
    });
    assert.deepEqual(await store.get(question.id), answered);
    assert.deepEqual(
      (await store.auditTrail(question.id)).map((entry) => [entry.at, entry.actor, entry.action]),
      [
        [t0, 'gateway', 'created'],
        [t1, 'gateway', 'delivered'],
        [t2, 'host:host-1', 'answered'],
      ],
    );

    const t3 = clock.advance();
    const reopened = await store.transition(question.id, { from: ['answered'], to: 'delivered', audit: { actor: 'operator:ann', action: 'reopened' } });
    assert.equal(reopened?.settledAt, undefined, 'an open state has no settledAt');
    assert.equal(reopened?.updatedAt, t3);
    assert.deepEqual(reopened?.answer, answered?.answer, 'fields the transition does not give are kept');
  });

  scenario('transition from a state the question has left does nothing', async ({ clock, open }) => {
    const store = await open();
    const question = makeQuestion();
    await store.create(question, created);
    clock.advance();
    assert.equal(await store.transition(question.id, { ...answerAsHost(), from: ['delivered'] }), undefined);
    assert.equal(await store.transition(question.id, { ...answerAsHost(), from: [] }), undefined);
    assert.deepEqual(await store.get(question.id), question);
    assert.deepEqual((await store.auditTrail(question.id)).map((entry) => entry.action), ['created']);
    assert.equal(await store.transition('nope', answerAsHost()), undefined);
  });

  scenario('first answer wins: of two instances racing from delivered, exactly one applies', async ({ open }) => {
    const one = await open({ owner: 'one' });
    const two = await open({ owner: 'two' });
    const question = makeQuestion();
    await one.create(question, created);
    await one.transition(question.id, deliver());
    const operator: Transition = {
      from: ['delivered'],
      to: 'answered',
      answer: { action: 'accept', content: { confirm: false } },
      answeredBy: { kind: 'operator', name: 'ann' },
      audit: { actor: 'operator:ann', action: 'answered' },
    };
    const [byHost, byOperator] = await Promise.all([one.transition(question.id, answerAsHost()), two.transition(question.id, operator)]);
    assert.equal([byHost, byOperator].filter((outcome) => outcome !== undefined).length, 1);
    const winner = byHost ?? byOperator;
    assert.deepEqual(await two.get(question.id), winner);
    assert.deepEqual((await one.auditTrail(question.id)).map((entry) => entry.action), ['created', 'delivered', 'answered']);
  });

  scenario('a transition that would not read back is refused (invalid-record) and changes nothing', async ({ open }) => {
    const store = await open();
    const question = makeQuestion();
    await store.create(question, created);
    const bad: Transition[] = [
      { ...deliver(), to: 'thinking' as QuestionState },
      { ...deliver(), from: 'pending' as unknown as QuestionState[] },
      { ...deliver(), from: ['pending', 'limbo' as QuestionState] },
      { ...answerAsHost(), answer: { action: 'maybe' as 'accept' } },
      { ...answerAsHost(), answeredBy: { kind: 'robot' } as unknown as Transition['answeredBy'] },
      { ...deliver(), audit: { actor: 'gateway', action: '' } },
    ];
    for (const transition of bad) await rejectsWith(store.transition(question.id, transition), 'invalid-record');
    assert.deepEqual(await store.get(question.id), question);
    assert.equal((await store.auditTrail(question.id)).length, 1);
  });
}
