/** @module Tests of two desks on one shared store (two gateway instances): an answer given on one reaches the call waiting on the other, written once. */

import { tokenOperator } from '../access/operator-principal.js';
import type { Principal } from '../access/principal.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { silentLogger } from '../core/log.js';
import { eventually } from '../core/testing/deadlines.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { createMemoryQuestionDatabase, MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import { QuestionDesk } from './desk.js';
import type { OpenRequest } from './open-request.js';
import type { QuestionStore } from './question-store.js';
import { FakeAsker, fakeHost, formQuestion } from './testing/desk-fakes.js';

const SCHEMA = { type: 'object', properties: { ticket: { type: 'string' } }, required: ['ticket'] };
const SECRET = { type: 'object', properties: { password: { type: 'string', format: 'password' } }, required: ['password'] };

/** Instance A holds the call (the asker waits there); instance B has only the shared store. */
function twoInstances(options: { storeA?: (database: ReturnType<typeof createMemoryQuestionDatabase>) => QuestionStore; recheckMs?: number; approvers?: Record<string, number> } = {}) {
  const database = createMemoryQuestionDatabase();
  const storeA = options.storeA?.(database) ?? new MemoryQuestionStore({ database, owner: 'a' });
  const both = { logger: silentLogger, operatorAvailable: true, ...(options.approvers ? { approvers: options.approvers } : {}) };
  const a = new QuestionDesk({ store: storeA, ...both, owner: 'a', ...(options.recheckMs ? { recheckMs: options.recheckMs } : {}) });
  const b = new QuestionDesk({ store: new MemoryQuestionStore({ database, owner: 'b' }), ...both, owner: 'b' });
  const host = fakeHost();
  const seat = a.seat(host);
  const asker = new FakeAsker();
  const ask = (schema: JsonObject = SCHEMA, overrides: Partial<OpenRequest> = {}): OpenRequest => formQuestion(seat, asker, schema, overrides);
  const close = async () => {
    await a.close();
    await b.close();
  };
  return { a, b, host, asker, ask, close, database };
}

test('an operator answer given on the instance that does not hold the call reaches the asker on the one that does, written once', async () => {
  const { a, b, host, asker, ask, close } = twoInstances();
  const opened = await a.open(ask());
  assert.ok(opened);
  const answered = await b.answer(opened.record.id, { action: 'accept', content: { ticket: 'CHG-7' } }, tokenOperator('bob'));
  assert.equal(answered.ok, true, 'B takes the answer');
  await eventually(() => asker.replies.length > 0, 'A relays it');
  assert.deepEqual(asker.replies, [{ id: 41, result: { action: 'accept', content: { ticket: 'CHG-7' } }, answeredBy: 'the operator bob' }]);
  assert.deepEqual(asker.resumed, [7]);
  assert.deepEqual(host.withdrawn.map((w) => w.reason), ['settled by an operator'], 'the host is told, on the call\'s stream');
  assert.equal(a.held(opened.record.id), undefined);
  const record = await b.get(opened.record.id);
  assert.deepEqual(record?.audit.map((line) => line.action), ['created', 'delivered', 'answered']);
  await close();
});

test('two operators answering on both instances at once: exactly one wins, the other is told it was settled', async () => {
  const { a, b, asker, ask, close } = twoInstances();
  const opened = await a.open(ask());
  assert.ok(opened);
  const [onA, onB] = await Promise.all([
    a.answer(opened.record.id, { action: 'accept', content: { ticket: 'A' } }, tokenOperator('alice')),
    b.answer(opened.record.id, { action: 'accept', content: { ticket: 'B' } }, tokenOperator('bob')),
  ]);
  assert.deepEqual([onA.ok, onB.ok].sort(), [false, true]);
  const loser = onA.ok ? onB : onA;
  assert.equal(loser.ok ? undefined : loser.kind, 'settled');
  await eventually(() => asker.replies.length > 0, 'the asker gets the winner\'s answer');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(asker.replies.length, 1, 'once');
  const winner = onA.ok ? 'A' : 'B';
  assert.deepEqual(asker.replies[0] && 'result' in asker.replies[0] ? asker.replies[0].result : undefined, { action: 'accept', content: { ticket: winner } });
  await close();
});

test('a change notification lost on the way: the holder finds the answer when it re-reads what it holds', async () => {
  // A's store registers listeners but never calls them, as a listener reconnecting would miss a notification.
  const { a, b, asker, ask, close } = twoInstances({
    storeA: (database) => {
      const store = new MemoryQuestionStore({ database, owner: 'a' });
      return Object.assign(store, { changes: () => () => undefined });
    },
    recheckMs: 20,
  });
  const opened = await a.open(ask());
  assert.ok(opened);
  assert.equal((await b.answer(opened.record.id, { action: 'decline' }, tokenOperator('bob'))).ok, true);
  await eventually(() => asker.replies.length > 0, 'the re-read finds it');
  assert.deepEqual(asker.replies, [{ id: 41, result: { action: 'decline' }, answeredBy: 'the operator bob' }]);
  await close();
});

test('on the instance that does not hold the call: an answer breaking the schema, one with a secret field, one to a host-only question are refused, the question stays open', async () => {
  const { a, b, asker, ask, close } = twoInstances();
  const plain = await a.open(ask());
  const secret = await a.open(ask(SECRET, { upstreamId: 42 }));
  const hostOnly = await a.open(ask(SCHEMA, { upstreamId: 43, route: 'host' }));
  assert.ok(plain && secret && hostOnly);
  const invalid = await b.answer(plain.record.id, { action: 'accept', content: { ticket: 7 } }, tokenOperator('bob'));
  assert.equal(invalid.ok ? 'ok' : invalid.kind, 'invalid');
  const hidden = await b.answer(secret.record.id, { action: 'accept', content: { password: 'hunter2' } }, tokenOperator('bob'));
  // Not written: the outcome names the instance holding the call, where the operator API forwards it.
  assert.equal(hidden.ok ? 'ok' : hidden.kind, 'elsewhere');
  assert.equal(!hidden.ok && hidden.kind === 'elsewhere' ? hidden.owner : undefined, 'a');
  assert.match(hidden.ok ? '' : hidden.reason, /secret field.*gateway instance a: answer it there/);
  const routed = await b.answer(hostOnly.record.id, { action: 'decline' }, tokenOperator('bob'));
  assert.equal(routed.ok ? 'ok' : routed.kind, 'invalid');
  for (const id of [plain.record.id, secret.record.id, hostOnly.record.id]) assert.equal((await b.get(id))?.question.state, 'delivered');
  assert.deepEqual(asker.replies, []);
  // The secret answer given where the call waits goes through, as given.
  assert.equal((await a.answer(secret.record.id, { action: 'accept', content: { password: 'hunter2' } }, tokenOperator('alice'))).ok, true);
  assert.deepEqual(asker.replies, [{ id: 42, result: { action: 'accept', content: { password: 'hunter2' } }, answeredBy: 'the operator alice' }]);
  await close();
});

test('operators watching one instance see the questions of every instance, and each change once', async () => {
  const { a, b, ask, close } = twoInstances();
  const seenOnB: string[] = [];
  const seenOnA: string[] = [];
  b.subscribe((event) => seenOnB.push(`${event.question.id}:${event.question.state}`));
  a.subscribe((event) => seenOnA.push(`${event.question.id}:${event.question.state}`));
  const opened = await a.open(ask());
  assert.ok(opened);
  const id = opened.record.id;
  await eventually(() => seenOnB.includes(`${id}:delivered`), 'B shows the question A opened');
  assert.equal((await b.answer(id, { action: 'decline' }, tokenOperator('bob'))).ok, true);
  await eventually(() => seenOnA.includes(`${id}:declined`), 'A shows the answer given on B');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(seenOnB, [`${id}:delivered`, `${id}:declined`], 'B: the question as it came, its own answer once');
  assert.deepEqual(seenOnA, [`${id}:pending`, `${id}:delivered`, `${id}:declined`], 'A: its own question as before, the answer from B once');
  await close();
});

// ---- four-eyes: approvals counted from the shared store ----------------------------------------------------------

const ISSUER = 'https://id.example';
const alice: Principal = { issuer: ISSUER, subject: 'alice-sub', name: 'Alice', groups: ['desk-ops'], scopes: [] };
const bob: Principal = { issuer: ISSUER, subject: 'bob-sub', name: 'Bob', groups: ['desk-ops'], scopes: [] };
const FOUR_EYES = { approvers: { desk_restart: 2 } };
const fourEyesAsk = { origin: { upstream: 'desk', tool: 'desk_restart', hostSessionId: 's-1', hostRevision: '2025-06-18', upstreamRevision: '2025-06-18' } };

test('four-eyes: the first accept is an approval (the question stays open, the host is never asked); a second operator on another instance settles it with their content', async () => {
  const { a, b, host, asker, ask, close } = twoInstances(FOUR_EYES);
  const opened = await a.open(ask(SCHEMA, fourEyesAsk));
  assert.ok(opened);
  assert.equal(opened.record.audience, 'operator', 'hosts cannot settle a four-eyes question');
  assert.equal(opened.hostKey, undefined);
  assert.match(opened.record.audienceReason ?? '', /four-eyes: 2 different operators/);
  const first = await a.answer(opened.record.id, { action: 'accept', content: { ticket: 'A-1' } }, alice);
  assert.deepEqual(first.ok && first.awaiting, { approvals: 1, needed: 2 });
  assert.equal(asker.replies.length, 0, 'one approval settles nothing');
  assert.ok(a.held(opened.record.id), 'still open');
  const again = await b.answer(opened.record.id, { action: 'accept', content: { ticket: 'A-2' } }, { ...alice, groups: [] });
  assert.equal(again.ok ? 'ok' : again.kind, 'already-approved', 'the same operator (issuer, subject) on another instance is still one approver');
  const second = await b.answer(opened.record.id, { action: 'accept', content: { ticket: 'B-1' } }, bob);
  assert.ok(second.ok && second.awaiting === undefined);
  assert.equal(second.question.state, 'answered');
  assert.deepEqual(second.question.answeredBy, { kind: 'operator', name: 'Bob', subject: 'bob-sub', issuer: ISSUER });
  await eventually(() => asker.replies.length > 0, 'A relays the answer');
  assert.deepEqual(asker.replies, [{ id: 41, result: { action: 'accept', content: { ticket: 'B-1' } }, answeredBy: 'the operator Bob' }]);
  assert.deepEqual(host.withdrawn, [], 'the host never had it');
  const trail = (await b.get(opened.record.id))?.audit ?? [];
  assert.deepEqual(trail.map((line) => `${line.actor} ${line.action}`), [
    'gateway created',
    'gateway delivered',
    `operator:Alice <alice-sub> (${ISSUER}) approved`,
    `operator:Alice <alice-sub> (${ISSUER}) rejected-answer`,
    `operator:Bob <bob-sub> (${ISSUER}) approved`,
    `operator:Bob <bob-sub> (${ISSUER}) answered`,
  ]);
  assert.deepEqual(trail[2]?.detail, { issuer: ISSUER, subject: 'alice-sub', name: 'Alice', content: { ticket: 'A-1' } });
  assert.deepEqual(trail.at(-1)?.detail, { issuer: ISSUER, subject: 'bob-sub' });
  await close();
});

test('four-eyes: a decline by any operator settles it declined; approvals are read from the store by any instance', async () => {
  const { a, b, asker, ask, close, database } = twoInstances(FOUR_EYES);
  const opened = await a.open(ask(SCHEMA, fourEyesAsk));
  assert.ok(opened);
  assert.ok((await a.answer(opened.record.id, { action: 'accept', content: { ticket: 'A-1' } }, alice)).ok);
  // A third instance (or this one restarted) counts the same approvals: they are in the store, not in memory.
  const c = new QuestionDesk({ store: new MemoryQuestionStore({ database, owner: 'c' }), logger: silentLogger, operatorAvailable: true, ...FOUR_EYES });
  const approvals = await c.approvals(opened.record);
  assert.deepEqual(approvals && { needed: approvals.needed, who: approvals.approvers.map((approver) => approver.subject) }, { needed: 2, who: ['alice-sub'] });
  const declined = await b.answer(opened.record.id, { action: 'decline' }, bob);
  assert.equal(declined.ok && declined.question.state, 'declined');
  await eventually(() => asker.replies.length > 0, 'A relays the decline');
  assert.equal(asker.replies[0] && 'result' in asker.replies[0] ? asker.replies[0].result.action : undefined, 'decline');
  await c.close();
  await close();
});

test('four-eyes: two operators approving at once on two instances settle it exactly once', async () => {
  const { a, b, asker, ask, close } = twoInstances(FOUR_EYES);
  const opened = await a.open(ask(SCHEMA, fourEyesAsk));
  assert.ok(opened);
  const outcomes = await Promise.all([
    a.answer(opened.record.id, { action: 'accept', content: { ticket: 'A' } }, alice),
    b.answer(opened.record.id, { action: 'accept', content: { ticket: 'B' } }, bob),
  ]);
  assert.ok(outcomes.some((outcome) => outcome.ok && outcome.awaiting === undefined), 'the later approval sees both and settles');
  await eventually(() => asker.replies.length > 0, 'the asker is answered');
  assert.equal(asker.replies.length, 1);
  assert.equal((await a.get(opened.record.id))?.question.state, 'answered');
  await close();
});

test('the shared token counts as one approver whatever name it gives', async () => {
  const { a, b, ask, close } = twoInstances(FOUR_EYES);
  const opened = await a.open(ask(SCHEMA, fourEyesAsk));
  assert.ok(opened);
  assert.ok((await a.answer(opened.record.id, { action: 'accept', content: { ticket: 'A' } }, tokenOperator('ann'))).ok);
  const other = await b.answer(opened.record.id, { action: 'accept', content: { ticket: 'B' } }, tokenOperator('ben'));
  assert.equal(other.ok ? 'ok' : other.kind, 'already-approved');
  await close();
});

test('every change is told once without `elsewhere` in the whole cluster: by the desk whose write made it; the other desk marks what it heard', async () => {
  const { a, b, asker, ask, close } = twoInstances();
  const heard: { desk: string; state: string; elsewhere: boolean }[] = [];
  a.subscribe((event) => heard.push({ desk: 'a', state: event.question.state, elsewhere: event.elsewhere === true }));
  b.subscribe((event) => heard.push({ desk: 'b', state: event.question.state, elsewhere: event.elsewhere === true }));
  const opened = await a.open(ask());
  assert.ok(opened);
  assert.equal((await b.answer(opened.record.id, { action: 'accept', content: { ticket: 'CHG-9' } }, tokenOperator('bob'))).ok, true);
  await eventually(() => asker.replies.length > 0, 'A relays it');
  await eventually(() => heard.some((event) => event.desk === 'a' && event.state === 'answered'), 'A tells its operators');
  const own = heard.filter((event) => !event.elsewhere).map((event) => `${event.desk} ${event.state}`);
  assert.deepEqual(own, ['a pending', 'a delivered', 'b answered'], JSON.stringify(heard));
  assert.ok(heard.some((event) => event.desk === 'a' && event.state === 'answered' && event.elsewhere), 'A heard the answer as another instance\'s');
  await close();
});
