/** @module Tests of the question desk as operators and routers see it: audience, first answer wins, operator checks, expiry, restart, audit. */

import type { AnswererRule } from '../access/answerers.js';
import { tokenOperator } from '../access/operator-principal.js';
import type { Principal } from '../access/principal.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { QuestionAnswer } from './question.js';
import { silentLogger } from '../core/log.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import type { OperatorAnswerCheck } from '../translation/answers/answer-check.js';
import { QuestionDesk } from './desk.js';
import type { OpenRequest } from './open-request.js';
import { FakeAsker, fakeHost } from './testing/desk-fakes.js';

const SCHEMA = { type: 'object', properties: { ticket: { type: 'string' } }, required: ['ticket'] };

function setup(options: { operatorAvailable?: boolean; answerers?: AnswererRule[]; approvers?: Record<string, number> } = {}) {
  const store = new MemoryQuestionStore();
  let n = 0;
  const desk = new QuestionDesk({
    store,
    logger: silentLogger,
    operatorAvailable: options.operatorAvailable ?? true,
    newId: () => `q-${++n}`,
    ...(options.answerers ? { answerers: options.answerers } : {}),
    ...(options.approvers ? { approvers: options.approvers } : {}),
  });
  return { store, desk, seat: desk.seat(fakeHost()) };
}

function request(overrides: Partial<OpenRequest> = {}): OpenRequest & { asker: FakeAsker } {
  return {
    method: 'elicitation/create',
    params: { message: 'Ticket?', requestedSchema: SCHEMA },
    origin: { upstream: 'desk', tool: 'desk__restart_service', hostSessionId: 's-1', hostRevision: '2025-06-18' },
    route: 'host-then-operator',
    timeoutMs: 60_000,
    asker: new FakeAsker(),
    upstreamId: 1,
    checkOperatorAnswer: (answer: QuestionAnswer): OperatorAnswerCheck =>
      typeof answer.content?.ticket === 'string' ? { ok: true, answer } : { ok: false, reason: 'ticket: required string', field: 'ticket' },
    ...overrides,
  } as OpenRequest & { asker: FakeAsker };
}

async function open(desk: QuestionDesk, asked: OpenRequest) {
  const opened = await desk.open(asked);
  assert.ok(opened, 'recorded');
  return opened.record;
}

test('a question the host cannot receive goes to the operator, who answers it; the asker is answered once, after the write', async () => {
  const { store, desk } = setup();
  const events: string[] = [];
  desk.subscribe((event) => events.push(`${event.type}:${event.question.state}`));
  const asked = request({ hostCannot: 'the host did not declare elicitation' });
  const opened = await open(desk, asked);
  assert.equal(opened.audience, 'operator');
  assert.equal(opened.state, 'delivered');
  assert.equal(opened.audienceReason, 'the host did not declare elicitation');
  const pending = await desk.list({ state: ['pending', 'delivered'] });
  assert.deepEqual(pending.map((q) => q.id), [opened.id]);

  const bad = await desk.answer(opened.id, { action: 'accept', content: {} }, tokenOperator('alice'));
  assert.deepEqual(bad, { ok: false, kind: 'invalid', reason: 'ticket: required string', field: 'ticket' });
  assert.equal(asked.asker.replies.length, 0, 'an invalid answer settles nothing');

  const good = await desk.answer(opened.id, { action: 'accept', content: { ticket: 'CHG-2291' } }, tokenOperator('alice'));
  assert.ok(good.ok);
  assert.deepEqual(asked.asker.replies, [{ id: 1, result: { action: 'accept', content: { ticket: 'CHG-2291' } }, answeredBy: 'the operator alice' }]);
  assert.equal(good.question.state, 'answered');
  assert.deepEqual(good.question.answeredBy, { kind: 'operator', name: 'alice' });
  assert.deepEqual((await store.get(opened.id))?.answer, { action: 'accept', content: { ticket: 'CHG-2291' } });

  const again = await desk.answer(opened.id, { action: 'decline' }, tokenOperator('bob'));
  assert.equal(again.ok ? 'ok' : again.kind, 'settled');
  assert.equal(asked.asker.replies.length, 1, 'a settled question is never settled twice');
  const audit = (await desk.get(opened.id))?.audit.map((entry) => `${entry.actor} ${entry.action}`);
  assert.deepEqual(audit, ['gateway created', 'gateway delivered', 'operator:alice rejected-answer', 'operator:alice answered', 'operator:bob rejected-answer']);
  assert.deepEqual(events, ['created:pending', 'updated:delivered', 'updated:answered']);
});

test('a host-only question cannot be answered by an operator; the host answer settles it', async () => {
  const { desk, seat } = setup();
  const asked = request({ seat, hostParams: { message: 'Ticket?', requestedSchema: SCHEMA }, delivery: { via: 'request' } });
  const opened = await open(desk, asked);
  assert.equal(opened.audience, 'host');
  assert.equal(opened.state, 'delivered');
  const refused = await desk.answer(opened.id, { action: 'accept', content: { ticket: 'x' } }, tokenOperator('mallory'));
  assert.equal(refused.ok ? 'ok' : refused.kind, 'invalid');
  const result = { action: 'accept', content: { ticket: 'T-1' } };
  assert.equal(await desk.settle(opened.id, { kind: 'host-answer', message: { jsonrpc: '2.0', id: 'sb-1', result }, checked: result }), true);
  assert.deepEqual((await desk.get(opened.id))?.question.answeredBy, { kind: 'host', sessionId: 's-1' });
  assert.equal(await desk.settle(opened.id, { kind: 'host-answer', message: { jsonrpc: '2.0', id: 'sb-1', result: { action: 'decline' } }, checked: undefined }), false);
  assert.equal(asked.asker.replies.length, 1);
});

test('both: the operator answers first, the host answer that follows is refused', async () => {
  const { desk, seat } = setup();
  const asked = request({ route: 'both', seat, hostParams: { message: 'Ticket?', requestedSchema: SCHEMA }, delivery: { via: 'request' } });
  const opened = await open(desk, asked);
  assert.equal(opened.audience, 'both');
  assert.ok(opened.hostParams);
  assert.ok((await desk.answer(opened.id, { action: 'accept', content: { ticket: 'OP-1' } }, tokenOperator('alice'))).ok);
  const result = { action: 'accept', content: { ticket: 'HOST-1' } };
  assert.equal(await desk.settle(opened.id, { kind: 'host-answer', message: { jsonrpc: '2.0', id: 'sb-1', result }, checked: result }), false);
  assert.deepEqual(asked.asker.replies, [{ id: 1, result: { action: 'accept', content: { ticket: 'OP-1' } }, answeredBy: 'the operator alice' }]);
});

test('nobody to ask: settled at once as cancelled by the gateway, with the reason recorded', async () => {
  const { desk } = setup({ operatorAvailable: false });
  const asked = request({ hostCannot: 'a 2025-03-26 host cannot receive elicitation' });
  const opened = await open(desk, asked);
  assert.equal(opened.state, 'cancelled');
  assert.equal(opened.audience, 'none');
  assert.deepEqual(opened.answer, { action: 'cancel' });
  assert.equal(asked.asker.replies.length, 1);
  assert.match(JSON.stringify(opened.answeredBy), /2025-03-26 host cannot receive elicitation/);
});

test('expiry answers cancel, never decline', async () => {
  const { desk, store } = setup();
  const asked = request({ hostCannot: 'no elicitation', timeoutMs: 20 });
  const opened = await open(desk, asked);
  for (let i = 0; i < 100 && asked.asker.replies.length === 0; i += 1) await new Promise((r) => setTimeout(r, 5));
  assert.equal((await store.get(opened.id))?.state, 'expired');
  assert.deepEqual((await store.get(opened.id))?.answer, { action: 'cancel' });
  assert.deepEqual(asked.asker.replies, [{ id: 1, result: { action: 'cancel' }, answeredBy: 'the gateway' }]);
});

test('withdrawn questions are abandoned; a restart abandons what a previous run left open', async () => {
  const { store, desk } = setup();
  const first = await open(desk, request({ hostCannot: 'no elicitation' }));
  await desk.settle(first.id, { kind: 'upstream-withdrew', reason: 'the upstream cancelled it' });
  assert.equal((await store.get(first.id))?.state, 'abandoned');

  const left = await open(desk, request({ hostCannot: 'no elicitation' }));
  const restarted = new QuestionDesk({ store, logger: silentLogger, operatorAvailable: true });
  await restarted.start();
  assert.equal((await store.get(left.id))?.state, 'abandoned');
  const answer = await restarted.answer(left.id, { action: 'accept', content: { ticket: 'late' } }, tokenOperator('alice'));
  assert.equal(answer.ok ? 'ok' : answer.kind, 'settled');
  await desk.close();
});

test('a consent question goes to the host that can answer it, unless consent goes to an operator (questions.consent: operator)', async () => {
  const { desk } = setup();
  const approval = { message: 'Approve?', requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } } } };
  assert.equal((await open(desk, request({ params: approval }))).audience, 'host');
  const opened = await open(desk, request({ params: approval, consentTo: 'operator' }));
  assert.equal(opened.audience, 'operator');
  assert.match(opened.audienceReason ?? '', /consent question: a lone yes\/no approval/);
  await desk.close();
});

test('a store that refuses the question: the paused calls resume and the asker gets -32603', async () => {
  const store = new MemoryQuestionStore();
  await store.close();
  const desk = new QuestionDesk({ store, logger: silentLogger, operatorAvailable: true });
  const asked = request({ paused: [3] });
  assert.equal(await desk.open(asked), undefined);
  assert.deepEqual([asked.asker.paused, asked.asker.resumed], [[3], [3]]);
  const [reply] = asked.asker.replies;
  assert.ok(reply && 'error' in reply);
  assert.equal(reply.error.code, -32603);
});

const ISSUER = 'https://id.example';
const ops = (subject: string, groups: string[]): Principal => ({ issuer: ISSUER, subject, name: subject.toUpperCase(), groups, scopes: [] });

test('policy.answerers: an operator outside the rules sees nothing of the question; their answer is a not-found, audited with who they are', async () => {
  const { store, desk } = setup({ answerers: [{ groups: ['desk-ops'], upstreams: ['desk'] }] });
  const asked = request({ hostCannot: 'the host did not declare elicitation' });
  const opened = await open(desk, asked);
  const mallory = ops('mallory', ['billing-ops']);
  const ada = ops('ada', ['desk-ops']);
  assert.equal(desk.mayAnswer(mallory, opened), false);
  assert.equal(desk.mayAnswer(ada, opened), true);
  assert.equal(desk.mayAnswer(tokenOperator('root'), opened), false, 'the shared token has no groups: rules apply to it too');
  const refused = await desk.answer(opened.id, { action: 'accept', content: { ticket: 'X' } }, mallory);
  assert.deepEqual(refused, { ok: false, kind: 'not-found', reason: `No question ${opened.id}` }, 'told exactly as for an unknown id');
  assert.equal(asked.asker.replies.length, 0);
  const answered = await desk.answer(opened.id, { action: 'accept', content: { ticket: 'CHG-1' } }, ada);
  assert.ok(answered.ok);
  assert.deepEqual(answered.question.answeredBy, { kind: 'operator', name: 'ADA', subject: 'ada', issuer: ISSUER });
  const trail = await store.auditTrail(opened.id);
  assert.deepEqual(trail.slice(2).map((line) => [line.actor, line.action, line.detail]), [
    [`operator:MALLORY <mallory> (${ISSUER})`, 'rejected-answer', { why: 'not among the answerers of this question (policy.answerers)', issuer: ISSUER, subject: 'mallory' }],
    [`operator:ADA <ada> (${ISSUER})`, 'answered', { issuer: ISSUER, subject: 'ada' }],
  ]);
});

test('four-eyes routes the question to operators only, whatever its route, and one desk refuses the same operator twice', async () => {
  const { desk, seat } = setup({ approvers: { desk__restart_service: 2 } });
  const asked = request({ seat, route: 'host', hostParams: { message: 'Ticket?', requestedSchema: SCHEMA }, delivery: { via: 'request' } });
  const opened = await open(desk, asked);
  assert.equal(opened.route, 'operator');
  assert.equal(opened.audience, 'operator');
  const ada = ops('ada', []);
  const first = await desk.answer(opened.id, { action: 'accept', content: { ticket: 'A' } }, ada);
  assert.deepEqual(first.ok && first.awaiting, { approvals: 1, needed: 2 });
  const twice = await desk.answer(opened.id, { action: 'accept', content: { ticket: 'A' } }, { ...ada, name: 'Ada again' });
  assert.equal(twice.ok ? 'ok' : twice.kind, 'already-approved');
  assert.deepEqual((await desk.approvals(opened))?.approvers.map((approver) => approver.subject), ['ada']);
  const invalid = await desk.answer(opened.id, { action: 'accept', content: {} }, ops('ben', []));
  assert.equal(invalid.ok ? 'ok' : invalid.kind, 'invalid', 'an approval is checked like an answer');
  const second = await desk.answer(opened.id, { action: 'accept', content: { ticket: 'B' } }, ops('ben', []));
  assert.equal(second.ok && second.question.state, 'answered');
  assert.deepEqual(asked.asker.replies.map((reply) => ('result' in reply ? reply.result : reply)), [{ action: 'accept', content: { ticket: 'B' } }]);
  assert.equal(await desk.approvals({ ...opened, origin: { upstream: 'desk', tool: 'other' } }), undefined, 'a tool without approvers needs no approvals');
});
