/** @module The QuestionStore contract, records: create and get, JSON kept exactly, duplicates and invalid records refused. */

import assert from 'node:assert/strict';

import type { QuestionRecord } from '../../questions/question.js';
import { putKey } from '../../protocol/json-clone.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import type { Scenario } from './contract-kit.js';
import { created, rejectsWith, answerAsHost } from './contract-kit.js';
import { makeQuestion } from './question-fixtures.js';

export function recordScenarios(scenario: Scenario): void {
  scenario('create then get returns the record, and the created line starts its trail', async ({ clock, open }) => {
    const store = await open();
    const question = makeQuestion({ hostParams: { message: 'Restart?' }, audienceReason: 'the host declared elicitation' });
    await store.create(question, { ...created, detail: { route: 'host-then-operator' } });
    assert.deepEqual(await store.get(question.id), question);
    assert.deepEqual(await store.auditTrail(question.id), [
      { questionId: question.id, at: clock.iso(), actor: 'gateway', action: 'created', detail: { route: 'host-then-operator' } },
    ]);
  });

  scenario('JSON comes back exactly: key order, `__proto__` as plain data, every kind of value', async ({ open }) => {
    const store = await open();
    const params: JsonObject = {};
    putKey(params, 'zeta', 1);
    putKey(params, '__proto__', { polluted: true });
    putKey(params, 'alpha', [0.1, -7, 1e300, 2 ** 53 - 1, null, true, false, '', [], {}]);
    putKey(params, 'text', 'Tōkyō 🚀 "quoted" \\ \n\t\u0000 lone \ud800 surrogate');
    let deep: JsonObject = { leaf: 'bottom' };
    for (let level = 0; level < 30; level += 1) deep = { [`level${level}`]: deep, after: level };
    putKey(params, 'deep', deep);
    const origin = { upstream: 'desk', hostRevision: '2025-06-18', tool: 'desk_restart', extra: { kept: ['yes'] } };
    const question = makeQuestion({ params, origin });
    const detail: JsonObject = {};
    putKey(detail, 'second', 2);
    putKey(detail, '__proto__', 'data');
    putKey(detail, 'first', 1);
    await store.create(question, { ...created, detail });
    const content: JsonObject = {};
    putKey(content, '__proto__', { isAdmin: true });
    putKey(content, 'b', 'x');
    putKey(content, 'a', 'y');
    await store.transition(question.id, { ...answerAsHost(), answer: { action: 'accept', content } });

    const got = await store.get(question.id);
    assert.ok(got);
    assert.equal(JSON.stringify(got.params), JSON.stringify(params));
    assert.deepEqual(Object.keys(got.params), ['zeta', '__proto__', 'alpha', 'text', 'deep']);
    assert.equal(Object.getPrototypeOf(got.params), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(got.params, '__proto__')?.value, { polluted: true });
    assert.equal(JSON.stringify(got.origin), JSON.stringify(origin));
    assert.equal(JSON.stringify(got.answer?.content), JSON.stringify(content));
    assert.equal(Object.getPrototypeOf(got.answer?.content), Object.prototype);
    const trail = await store.auditTrail(question.id);
    assert.equal(JSON.stringify(trail[0]?.detail), '{"second":2,"__proto__":"data","first":1}');
    assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
    assert.equal((Object.prototype as Record<string, unknown>).isAdmin, undefined);
  });

  scenario('what is stored is apart from the objects given and returned', async ({ open }) => {
    const store = await open();
    const question = makeQuestion();
    const expected = structuredClone(question);
    await store.create(question, created);
    (question.params as { message: string }).message = 'changed after create';
    question.origin.upstream = 'elsewhere';
    const first = await store.get(question.id);
    assert.ok(first);
    first.params.message = 'changed after get';
    first.state = 'answered';
    assert.deepEqual(await store.get(question.id), expected);
  });

  scenario('an unknown id: get gives undefined, its trail is empty', async ({ open }) => {
    const store = await open();
    assert.equal(await store.get('nope'), undefined);
    assert.deepEqual(await store.auditTrail('nope'), []);
  });

  scenario('creating an id twice is refused (duplicate) and changes nothing', async ({ clock, open }) => {
    const store = await open();
    const question = makeQuestion();
    await store.create(question, created);
    clock.advance();
    await rejectsWith(store.create({ ...question, state: 'answered' }, created), 'duplicate');
    assert.deepEqual(await store.get(question.id), question);
    assert.equal((await store.auditTrail(question.id)).length, 1);
  });

  scenario('a record that would not read back is refused (invalid-record) and nothing is written', async ({ open }) => {
    const store = await open();
    const bad: [string, Partial<QuestionRecord> | Record<string, unknown>][] = [
      ['a time not in toISOString form', { createdAt: '2026-03-01 09:00' }],
      ['a time with an offset', { deadline: '2026-03-01T10:00:00.000+01:00' }],
      ['an unknown state', { state: 'thinking' }],
      ['an unknown method', { method: 'tools/call' }],
      ['an unknown route', { route: 'anyone' }],
      ['params that are a list', { params: [1, 2] }],
      ['params that are not JSON', { params: { n: 10n } }],
      ['an origin without upstream', { origin: { tool: 'x' } }],
      ['an answerer without its name', { answeredBy: { kind: 'operator' } }],
      ['an answer with an unknown action', { answer: { action: 'maybe' } }],
    ];
    for (const [why, overrides] of bad) {
      const question = makeQuestion(overrides as Partial<QuestionRecord>);
      await rejectsWith(store.create(question, created), 'invalid-record').catch((error: unknown) => {
        throw new Error(`${why}: ${String(error)}`);
      });
      assert.equal(await store.get(question.id), undefined, why);
    }
    const question = makeQuestion();
    await rejectsWith(store.create(question, { actor: '', action: 'created' }), 'invalid-record');
    assert.equal(await store.get(question.id), undefined);
    assert.deepEqual(await store.list(), []);
  });

  scenario('create with more lines writes them in the same transaction: a question delivered at once is one write', async ({ clock, open }) => {
    const store = await open();
    const question = makeQuestion({ state: 'delivered' });
    const delivered = { actor: 'gateway', action: 'delivered', detail: { to: 'host', hostRequestId: 'sb-1', via: 'request' } };
    await store.create(question, created, delivered);
    assert.deepEqual(await store.get(question.id), question);
    assert.deepEqual(await store.auditTrail(question.id), [
      { questionId: question.id, at: clock.iso(), actor: 'gateway', action: 'created' },
      { questionId: question.id, at: clock.iso(), ...delivered },
    ]);
    const refused = makeQuestion({ state: 'delivered' });
    await rejectsWith(store.create(refused, created, { actor: '', action: 'delivered' }), 'invalid-record');
    assert.equal(await store.get(refused.id), undefined);
    assert.deepEqual(await store.auditTrail(refused.id), []);
  });
}
