/** @module The one contract every QuestionStore implementation must pass, run by each implementation's test file. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { QuestionRecord, QuestionState, Transition } from '../../broker/question.js';
import type { QuestionStore } from '../../broker/question-store.js';
import { putKey } from '../../protocol/json-clone.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import type { QuestionStoreErrorCode } from '../store-error.js';
import type { ManualClock } from './question-fixtures.js';
import { makeQuestion, manualClock } from './question-fixtures.js';

/** One backing database; every store opened on it sees the same questions (as gateway instances sharing a store do). */
export interface StoreHarness {
  open(options: { owner?: string; now: () => Date }): Promise<QuestionStore>;
  /** Removes what the harness made (temporary files). */
  dispose(): Promise<void>;
}

interface Context {
  clock: ManualClock;
  open(options?: { owner?: string }): Promise<QuestionStore>;
}

const created = { actor: 'gateway', action: 'created' } as const;

async function rejectsWith(promise: Promise<unknown>, code: QuestionStoreErrorCode): Promise<void> {
  await assert.rejects(promise, { name: 'QuestionStoreError', code });
}

function deliver(extra: Partial<Transition> = {}): Transition {
  return { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' }, ...extra };
}

function answerAsHost(sessionId = 'host-1'): Transition {
  return {
    from: ['pending', 'delivered'],
    to: 'answered',
    answer: { action: 'accept', content: { confirm: true } },
    answeredBy: { kind: 'host', sessionId },
    audit: { actor: `host:${sessionId}`, action: 'answered' },
  };
}

/** Registers the contract's tests under `name`; `makeHarness` gives each test a fresh, empty database. */
export function questionStoreContract(name: string, makeHarness: () => Promise<StoreHarness>): void {
  function scenario(title: string, body: (context: Context) => Promise<void>): void {
    test(title, async () => {
      const harness = await makeHarness();
      const clock = manualClock();
      const opened: QuestionStore[] = [];
      try {
        await body({
          clock,
          async open(options = {}) {
            const store = await harness.open({ ...options, now: clock.now });
            opened.push(store);
            return store;
          },
        });
      } finally {
        for (const store of opened) await store.close();
        await harness.dispose();
      }
    });
  }

  describe(`QuestionStore contract: ${name}`, () => {
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

    scenario('audit appends a line without touching the state; a line for an unknown question is refused', async ({ clock, open }) => {
      const store = await open();
      const question = makeQuestion();
      await store.create(question, created);
      const at = clock.advance();
      await store.audit({ questionId: question.id, actor: 'host:host-1', action: 'rejected-answer', detail: { field: 'ticket' } });
      assert.deepEqual(await store.get(question.id), question);
      assert.deepEqual((await store.auditTrail(question.id))[1], {
        questionId: question.id,
        at,
        actor: 'host:host-1',
        action: 'rejected-answer',
        detail: { field: 'ticket' },
      });
      await rejectsWith(store.audit({ questionId: 'nope', actor: 'operator:ann', action: 'viewed' }), 'unknown-question');
      assert.deepEqual(await store.auditTrail('nope'), []);
    });

    scenario('the trail is in writing order, whatever the clock says', async ({ clock, open }) => {
      const store = await open();
      const question = makeQuestion();
      await store.create(question, created);
      clock.advance(-60_000);
      await store.audit({ questionId: question.id, actor: 'operator:ann', action: 'viewed' });
      clock.advance(-60_000);
      await store.transition(question.id, deliver());
      assert.deepEqual((await store.auditTrail(question.id)).map((entry) => entry.action), ['created', 'viewed', 'delivered']);
    });

    scenario('list is newest first, equal times newest-written first, 100 by default', async ({ open }) => {
      const store = await open();
      const ids: string[] = [];
      for (let i = 0; i < 101; i += 1) {
        const question = makeQuestion({ createdAt: new Date(Date.parse('2026-03-01T09:00:00.000Z') + (i % 50) * 1000).toISOString() });
        ids.push(question.id);
        await store.create(question, created);
      }
      const listed = (await store.list()).map((question) => question.id);
      assert.equal(listed.length, 100);
      // created at second i % 50: 49 holds ids[49] and ids[99]; 0 holds ids[0], ids[50] and ids[100].
      assert.deepEqual(listed.slice(0, 4), [ids[99], ids[49], ids[98], ids[48]]);
      assert.deepEqual(listed.slice(-2), [ids[100], ids[50]]);
      assert.equal((await store.list({ limit: 5000 })).length, 101, 'a limit above the maximum is lowered, not refused');
      assert.deepEqual((await store.list({ limit: 3 })).map((question) => question.id), listed.slice(0, 3));
    });

    scenario('list honours every filter, alone and together', async ({ clock, open }) => {
      const store = await open();
      const at = (second: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + second * 1000).toISOString();
      const a = makeQuestion({ createdAt: at(1), origin: { upstream: 'desk', tool: 'desk_restart' } });
      const b = makeQuestion({ createdAt: at(2), method: 'sampling/createMessage', origin: { upstream: 'ops', tool: 'ops_summarize' } });
      const c = makeQuestion({ createdAt: at(3), method: 'roots/list', origin: { upstream: 'desk' } });
      const d = makeQuestion({ createdAt: at(4), origin: { upstream: 'ops', tool: 'desk_restart' } });
      for (const question of [a, b, c, d]) await store.create(question, created);
      clock.advance();
      await store.transition(a.id, answerAsHost());
      await store.transition(b.id, {
        from: ['pending'],
        to: 'declined',
        answer: { action: 'decline' },
        answeredBy: { kind: 'operator', name: 'ann' },
        audit: { actor: 'operator:ann', action: 'declined' },
      });
      await store.transition(c.id, { from: ['pending'], to: 'expired', answeredBy: { kind: 'gateway', reason: 'deadline passed' }, audit: { actor: 'gateway', action: 'expired' } });

      const ids = async (filter: Parameters<QuestionStore['list']>[0]) => (await store.list(filter)).map((question) => question.id);
      assert.deepEqual(await ids({}), [d.id, c.id, b.id, a.id]);
      assert.deepEqual(await ids({ state: 'pending' }), [d.id]);
      assert.deepEqual(await ids({ state: ['answered', 'expired'] }), [c.id, a.id]);
      assert.deepEqual(await ids({ state: [] }), []);
      assert.deepEqual(await ids({ upstream: 'desk' }), [c.id, a.id]);
      assert.deepEqual(await ids({ tool: 'desk_restart' }), [d.id, a.id]);
      assert.deepEqual(await ids({ answeredBy: 'host' }), [a.id]);
      assert.deepEqual(await ids({ answeredBy: 'operator' }), [b.id]);
      assert.deepEqual(await ids({ answeredBy: 'gateway' }), [c.id]);
      assert.deepEqual(await ids({ method: 'elicitation/create' }), [d.id, a.id]);
      assert.deepEqual(await ids({ method: 'roots/list' }), [c.id]);
      assert.deepEqual(await ids({ before: at(3) }), [b.id, a.id], 'before is strict');
      assert.deepEqual(await ids({ before: '2026-03-01T11:00:03+01:00' }), [b.id, a.id], 'an offset time is understood');
      assert.deepEqual(await ids({ before: '2026-03-02' }), [d.id, c.id, b.id, a.id]);
      assert.deepEqual(await ids({ upstream: 'ops', tool: 'desk_restart', state: ['pending', 'answered'], method: 'elicitation/create' }), [d.id]);
      assert.deepEqual(await ids({ upstream: 'desk', answeredBy: 'operator' }), []);
      assert.deepEqual(await ids({ state: ['answered', 'declined', 'expired'], before: at(3), limit: 1 }), [b.id]);
    });

    scenario('a bad filter is refused (invalid-filter)', async ({ open }) => {
      const store = await open();
      const bad: Record<string, unknown>[] = [
        { state: 'thinking' },
        { state: ['pending', 'limbo'] },
        { method: 'tools/call' },
        { answeredBy: 'robot' },
        { limit: 0 },
        { limit: -1 },
        { limit: 1.5 },
        { limit: Number.NaN },
        { before: 'yesterday' },
        { before: '2026-13-45T99:00:00Z' },
        { upstream: 7 },
      ];
      for (const filter of bad) await rejectsWith(store.list(filter as Parameters<QuestionStore['list']>[0]), 'invalid-filter');
    });

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
  });
}
