/** @module The QuestionStore contract, reads: audit lines, the trail, list and its filters. */

import assert from 'node:assert/strict';

import type { QuestionStore } from '../../questions/question-store.js';
import type { Scenario } from './contract-kit.js';
import { created, rejectsWith, deliver, answerAsHost } from './contract-kit.js';
import { makeQuestion } from './question-fixtures.js';

export function readScenarios(scenario: Scenario): void {
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
}
