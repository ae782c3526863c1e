/** @module Tests of the question broker: audience, first answer wins, operator checks, expiry, restart, audit. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { silentLogger } from '../gateway/logger.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import type { AnswerCheck, QuestionRequest } from './broker.js';
import { QuestionBroker } from './broker.js';
import type { QuestionAnswer, QuestionRecord } from './question.js';

const SCHEMA = { type: 'object', properties: { ticket: { type: 'string' } }, required: ['ticket'] };

function setup(options: { operatorAvailable?: boolean } = {}) {
  const store = new MemoryQuestionStore();
  let n = 0;
  const broker = new QuestionBroker({ store, logger: silentLogger, operatorAvailable: options.operatorAvailable ?? true, newId: () => `q-${++n}` });
  return { store, broker };
}

function request(overrides: Partial<QuestionRequest> = {}): QuestionRequest & { settled: QuestionRecord[] } {
  const settled: QuestionRecord[] = [];
  return {
    method: 'elicitation/create',
    params: { message: 'Ticket?', requestedSchema: SCHEMA },
    origin: { upstream: 'desk', tool: 'desk__restart_service', hostSessionId: 's-1', hostRevision: '2025-06-18' },
    route: 'host-then-operator',
    timeoutMs: 60_000,
    checkOperatorAnswer: (answer: QuestionAnswer): AnswerCheck =>
      typeof answer.content?.ticket === 'string' ? { ok: true, answer } : { ok: false, reason: 'ticket: required string', field: 'ticket' },
    onSettled: (question) => settled.push(question),
    settled,
    ...overrides,
  };
}

test('a question the host cannot receive goes to the operator, who answers it; the router is told once, after the write', async () => {
  const { store, broker } = setup();
  const events: string[] = [];
  broker.subscribe((event) => events.push(`${event.type}:${event.question.state}`));
  const asked = request({ hostCannot: 'the host did not declare elicitation' });
  const opened = await broker.open(asked);
  assert.equal(opened.audience, 'operator');
  assert.equal(opened.state, 'delivered');
  assert.equal(opened.audienceReason, 'the host did not declare elicitation');
  const pending = await broker.list({ state: ['pending', 'delivered'] });
  assert.deepEqual(pending.map((q) => q.id), [opened.id]);

  const bad = await broker.answer(opened.id, { action: 'accept', content: {} }, 'alice');
  assert.deepEqual(bad, { ok: false, kind: 'invalid', reason: 'ticket: required string', field: 'ticket' });
  assert.equal(asked.settled.length, 0, 'an invalid answer settles nothing');

  const good = await broker.answer(opened.id, { action: 'accept', content: { ticket: 'CHG-2291' } }, 'alice');
  assert.ok(good.ok);
  assert.equal(asked.settled.length, 1);
  const [settled] = asked.settled;
  assert.equal(settled?.state, 'answered');
  assert.deepEqual(settled?.answeredBy, { kind: 'operator', name: 'alice' });
  assert.deepEqual((await store.get(opened.id))?.answer, { action: 'accept', content: { ticket: 'CHG-2291' } });

  const again = await broker.answer(opened.id, { action: 'decline' }, 'bob');
  assert.equal(again.ok ? 'ok' : again.kind, 'settled');
  assert.equal(asked.settled.length, 1, 'a settled question is never settled twice');
  const audit = (await broker.get(opened.id))?.audit.map((entry) => `${entry.actor} ${entry.action}`);
  assert.deepEqual(audit, ['gateway created', 'gateway delivered', 'operator:alice rejected-answer', 'operator:alice answered', 'operator:bob rejected-answer']);
  assert.deepEqual(events, ['created:pending', 'updated:delivered', 'updated:answered']);
});

test('a host-only question cannot be answered by an operator; the host answer settles it without calling back', async () => {
  const { broker } = setup();
  const asked = request();
  const opened = await broker.open(asked);
  assert.equal(opened.audience, 'host');
  assert.equal(opened.state, 'pending');
  await broker.delivered(opened.id, 'sb-1');
  const refused = await broker.answer(opened.id, { action: 'accept', content: { ticket: 'x' } }, 'mallory');
  assert.equal(refused.ok ? 'ok' : refused.kind, 'invalid');
  assert.equal(await broker.answerFromHost(opened.id, { action: 'accept', content: { ticket: 'T-1' } }, 's-1'), true);
  assert.equal(asked.settled.length, 1);
  assert.deepEqual(asked.settled[0]?.answeredBy, { kind: 'host', sessionId: 's-1' });
  assert.equal(await broker.answerFromHost(opened.id, { action: 'decline' }, 's-1'), false);
});

test('both: the operator answers first, the host answer that follows is refused', async () => {
  const { broker } = setup();
  const asked = request({ route: 'both', hostParams: { message: 'Ticket?', requestedSchema: SCHEMA } });
  const opened = await broker.open(asked);
  assert.equal(opened.audience, 'both');
  assert.ok(opened.hostParams);
  assert.ok((await broker.answer(opened.id, { action: 'accept', content: { ticket: 'OP-1' } }, 'alice')).ok);
  assert.equal(await broker.answerFromHost(opened.id, { action: 'accept', content: { ticket: 'HOST-1' } }, 's-1'), false);
  assert.equal(asked.settled.length, 1);
  assert.deepEqual(asked.settled[0]?.answer, { action: 'accept', content: { ticket: 'OP-1' } });
});

test('nobody to ask: settled at once as cancelled by the gateway, with the reason recorded', async () => {
  const { broker } = setup({ operatorAvailable: false });
  const asked = request({ hostCannot: 'a 2025-03-26 host cannot receive elicitation' });
  const opened = await broker.open(asked);
  assert.equal(opened.state, 'cancelled');
  assert.equal(opened.audience, 'none');
  assert.deepEqual(opened.answer, { action: 'cancel' });
  assert.equal(asked.settled.length, 1);
  assert.match(JSON.stringify(opened.answeredBy), /2025-03-26 host cannot receive elicitation/);
});

test('expiry answers cancel, never decline', async () => {
  const { broker } = setup();
  const asked = request({ hostCannot: 'no elicitation', timeoutMs: 20 });
  await broker.open(asked);
  for (let i = 0; i < 100 && asked.settled.length === 0; i += 1) await new Promise((r) => setTimeout(r, 5));
  assert.equal(asked.settled[0]?.state, 'expired');
  assert.deepEqual(asked.settled[0]?.answer, { action: 'cancel' });
});

test('withdrawn questions are abandoned; a restart abandons what a previous run left open', async () => {
  const { store, broker } = setup();
  const first = await broker.open(request({ hostCannot: 'no elicitation' }));
  await broker.withdraw(first.id, 'the upstream cancelled it');
  assert.equal((await store.get(first.id))?.state, 'abandoned');

  const left = await broker.open(request({ hostCannot: 'no elicitation' }));
  const restarted = new QuestionBroker({ store, logger: silentLogger, operatorAvailable: true });
  await restarted.start();
  assert.equal((await store.get(left.id))?.state, 'abandoned');
  const answer = await restarted.answer(left.id, { action: 'accept', content: { ticket: 'late' } }, 'alice');
  assert.equal(answer.ok ? 'ok' : answer.kind, 'settled');
  await broker.close();
});

test('a consent question goes to the host that can answer it, unless consent goes to an operator (questions.consent: operator)', async () => {
  const { broker } = setup();
  const approval = { message: 'Approve?', requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } } } };
  assert.equal((await broker.open(request({ params: approval }))).audience, 'host');
  const opened = await broker.open(request({ params: approval, consentTo: 'operator' }));
  assert.equal(opened.audience, 'operator');
  assert.match(opened.audienceReason ?? '', /consent question: a lone yes\/no approval/);
  await broker.close();
});
