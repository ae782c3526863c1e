/** @module Tests of the question desk's `settle`, as a table: one row per outcome, each effect asserted (calls resumed, host told, asker answered, state recorded). */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { QuestionState, Transition } from './question.js';
import type { AuditLine, QuestionStore } from './question-store.js';
import { silentLogger } from '../core/log.js';
import { eventually } from '../core/testing/deadlines.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { createMemoryQuestionDatabase, MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import { checkOperatorAnswer } from '../translation/answers/answer-check.js';
import { QuestionDesk } from './desk.js';
import type { OpenRequest } from './open-request.js';
import type { Outcome, OutcomeKind } from './settle-table.js';
import { SETTLE_EFFECTS } from './settle-table.js';
import type { FakeHost, Reply } from './testing/desk-fakes.js';
import { FakeAsker, fakeHost } from './testing/desk-fakes.js';

const SCHEMA = { type: 'object', properties: { ticket: { type: 'string' } }, required: ['ticket'] };
const CALL = 7;
const UPSTREAM_ID = 41;

interface Row {
  outcome: Outcome;
  /** How the question is asked (default: to the host only, sent at once). */
  ask?: Partial<OpenRequest>;
  operatorAvailable?: boolean;
  /** Whether `open` itself settles it (nobody to ask). */
  settlesAtOpen?: boolean;
  resumed: boolean;
  /** The reason notifications/cancelled gives the host (null: the host is not told; undefined: told without a reason). */
  hostTold: string | null | undefined;
  /** What the asker gets: a result and who gave it, an error code and message, or nothing. */
  upstream: { result: JsonObject; answeredBy?: string } | { code: number; message: RegExp; data?: JsonObject } | null;
  state: QuestionState;
  answeredBy: JsonObject;
  /** The audit actions after `created`, in order. */
  trail: string[];
  /** Another writer of the same store settles it this way first (the outcome is then what it recorded, heard of by the desk). */
  elsewhere?: Transition;
}

const hostAnswer = (result: JsonObject): Outcome => ({ kind: 'host-answer', message: { jsonrpc: '2.0', id: 'sb-1', result }, checked: result });

const ROWS: Record<OutcomeKind, Row> = {
  'host-answer': {
    outcome: hostAnswer({ action: 'accept', content: { ticket: 'T-1' } }),
    resumed: true,
    hostTold: null,
    upstream: { result: { action: 'accept', content: { ticket: 'T-1' } }, answeredBy: 'the host' },
    state: 'answered',
    answeredBy: { kind: 'host', sessionId: 's-1' },
    trail: ['delivered', 'answered'],
  },
  'host-answer-refused': {
    outcome: { kind: 'host-answer-refused', refusal: { reason: 'Invalid answer: field "ticket": expected a string', field: 'ticket' } },
    resumed: true,
    hostTold: null,
    upstream: { code: -32602, message: /the host's answer was refused: Invalid answer: field "ticket"/, data: { reason: 'GW_ERR_INVALID_ANSWER', field: 'ticket' } },
    state: 'cancelled',
    answeredBy: { kind: 'host', sessionId: 's-1' },
    trail: ['delivered', 'rejected-answer', 'cancelled'],
  },
  'operator-answer': {
    outcome: { kind: 'operator-answer', operator: { kind: 'operator', name: 'alice' }, answer: { action: 'accept', content: { ticket: 'OP-1' } } },
    ask: { route: 'both' },
    resumed: true,
    hostTold: 'settled by an operator',
    upstream: { result: { action: 'accept', content: { ticket: 'OP-1' } }, answeredBy: 'the operator alice' },
    state: 'answered',
    answeredBy: { kind: 'operator', name: 'alice' },
    trail: ['delivered', 'answered'],
  },
  expired: {
    outcome: { kind: 'expired' },
    resumed: true,
    hostTold: 'the question expired',
    upstream: { result: { action: 'cancel' }, answeredBy: 'the gateway' },
    state: 'expired',
    answeredBy: { kind: 'gateway', reason: 'the question expired' },
    trail: ['delivered', 'expired'],
  },
  'upstream-withdrew': {
    outcome: { kind: 'upstream-withdrew', reason: 'no longer needed' },
    resumed: true,
    hostTold: 'no longer needed',
    upstream: null,
    state: 'abandoned',
    answeredBy: { kind: 'gateway', reason: 'the upstream withdrew it: no longer needed' },
    trail: ['delivered', 'abandoned'],
  },
  'call-cancelled': {
    outcome: { kind: 'call-cancelled' },
    resumed: true,
    hostTold: 'the call was cancelled',
    upstream: { code: -32800, message: /^Question abandoned: the call was cancelled$/ },
    state: 'abandoned',
    answeredBy: { kind: 'gateway', reason: 'the call was cancelled' },
    trail: ['delivered', 'abandoned'],
  },
  'upstream-gone': {
    outcome: { kind: 'upstream-gone' },
    resumed: false,
    hostTold: 'the upstream went away',
    upstream: null,
    state: 'abandoned',
    answeredBy: { kind: 'gateway', reason: 'the upstream went away' },
    trail: ['delivered', 'abandoned'],
  },
  'session-closed': {
    outcome: { kind: 'session-closed', why: 'the host session closed' },
    resumed: false,
    hostTold: null,
    upstream: { code: -32800, message: /^Question abandoned: the host session closed$/ },
    state: 'abandoned',
    answeredBy: { kind: 'gateway', reason: 'the host session closed' },
    trail: ['delivered', 'abandoned'],
  },
  shutdown: {
    outcome: { kind: 'shutdown' },
    resumed: false,
    hostTold: null,
    upstream: null,
    state: 'abandoned',
    answeredBy: { kind: 'gateway', reason: 'the gateway is shutting down' },
    trail: ['delivered', 'abandoned'],
  },
  'settled-elsewhere': {
    outcome: { kind: 'expired' }, // replaced by what the other writer recorded, which the desk hears of
    ask: { route: 'both' },
    elsewhere: { from: ['delivered'], to: 'answered', answer: { action: 'accept', content: { ticket: 'OP-2' } }, answeredBy: { kind: 'operator', name: 'bob' }, audit: { actor: 'operator:bob', action: 'answered' } },
    resumed: true,
    hostTold: 'settled by an operator',
    upstream: { result: { action: 'accept', content: { ticket: 'OP-2' } }, answeredBy: 'the operator bob' },
    state: 'answered',
    answeredBy: { kind: 'operator', name: 'bob' },
    trail: ['delivered', 'answered'],
  },
  nobody: {
    outcome: { kind: 'nobody', reason: 'settled by open itself' },
    ask: { route: 'host-then-operator', hostCannot: 'the host did not declare elicitation', hostCouldNot: 'the host did not declare elicitation', hostParams: undefined, relatedRequestId: 'call-1' },
    operatorAvailable: false,
    settlesAtOpen: true,
    resumed: true,
    hostTold: null,
    upstream: { code: -32601, message: /^Method not found: elicitation\/create \(the host did not declare elicitation; no operator surface runs/, data: { reason: 'GW_ERR_HOST_LACKS_CAPABILITY' } },
    state: 'cancelled',
    answeredBy: { kind: 'gateway', reason: 'the host did not declare elicitation; no operator surface runs in this gateway (serve it over HTTP for the console and REST API)' },
    trail: ['cancelled'],
  },
};

function setup(options: { operatorAvailable?: boolean; store?: QuestionStore } = {}) {
  const database = createMemoryQuestionDatabase();
  const store = options.store ?? new MemoryQuestionStore({ database });
  /** Another gateway instance's store, on the same tables. */
  const other = new MemoryQuestionStore({ database });
  let n = 0;
  const desk = new QuestionDesk({ store, logger: silentLogger, operatorAvailable: options.operatorAvailable ?? true, newId: () => `q-${++n}` });
  const host = fakeHost();
  const seat = desk.seat(host);
  const asker = new FakeAsker();
  const ask = (overrides: Partial<OpenRequest> = {}): OpenRequest => {
    const params = { message: 'Ticket?', requestedSchema: SCHEMA };
    return {
      method: 'elicitation/create',
      params,
      origin: { upstream: 'desk', tool: 'desk__restart', hostSessionId: host.id, hostRevision: '2025-06-18' },
      route: 'host',
      timeoutMs: 60_000,
      hostParams: params,
      delivery: { via: 'request' },
      asker,
      upstreamId: UPSTREAM_ID,
      seat,
      callId: CALL,
      paused: [CALL],
      relatedRequestId: 'call-1',
      asked: { requestedSchema: SCHEMA, upstreamSchema: undefined },
      checkOperatorAnswer: (answer) => checkOperatorAnswer('elicitation/create', params, '2025-06-18', answer),
      ...overrides,
    };
  };
  return { store, other, desk, host, seat, asker, ask };
}

function assertReply(replies: Reply[], expected: Row['upstream'], kind: string): void {
  if (expected === null) return assert.deepEqual(replies, [], `${kind}: the asker gets nothing`);
  assert.equal(replies.length, 1, `${kind}: the asker gets one reply`);
  const [reply] = replies;
  assert.equal(reply?.id, UPSTREAM_ID);
  if ('result' in expected) return assert.deepEqual(reply, { id: UPSTREAM_ID, ...expected }, kind);
  assert.ok(reply && 'error' in reply, `${kind}: an error`);
  assert.equal(reply.error.code, expected.code, kind);
  assert.match(reply.error.message, expected.message, kind);
  if (expected.data) assert.deepEqual(reply.error.data, expected.data, kind);
}

function told(host: FakeHost): (string | undefined)[] {
  return host.withdrawn.map((withdrawn) => {
    assert.equal(withdrawn.key, 'sb-1');
    assert.equal(withdrawn.call, 'call-1', 'on the stream of the call');
    return withdrawn.reason;
  });
}

test('the table has one row per outcome, and the test one row per row', () => {
  assert.deepEqual(Object.keys(ROWS).sort(), Object.keys(SETTLE_EFFECTS).sort());
});

for (const [kind, row] of Object.entries(ROWS)) {
  test(`settle: ${kind}`, async () => {
    const { store, other, desk, host, asker, ask } = setup(row.operatorAvailable === undefined ? {} : { operatorAvailable: row.operatorAvailable });
    const opened = await desk.open(ask(row.ask));
    assert.ok(opened);
    const { id } = opened.record;
    assert.deepEqual(asker.paused, [CALL], 'the call stops its clock while the question is open');
    assert.equal(asker.recordedAs.get(UPSTREAM_ID), id);
    if (row.elsewhere) {
      assert.ok(await other.transition(id, row.elsewhere), 'the other writer wins the compare-and-set');
      await eventually(() => desk.held(id) === undefined, 'the desk hears of the change and carries it out');
    } else if (!row.settlesAtOpen) {
      assert.equal(opened.hostKey, 'sb-1');
      assert.equal(await desk.settle(id, row.outcome), true);
    }
    assert.deepEqual(asker.resumed, row.resumed ? [CALL] : [], `${kind}: resumed`);
    assert.deepEqual(told(host), row.hostTold === null ? [] : [row.hostTold], `${kind}: host told`);
    assertReply(asker.replies, row.upstream, kind);
    const record = await store.get(id);
    assert.equal(record?.state, row.state);
    assert.deepEqual(record?.answeredBy, row.answeredBy);
    assert.deepEqual((await store.auditTrail(id)).map((line) => line.action), ['created', ...row.trail]);
    if (kind === 'nobody') assert.deepEqual(host.lacked, [{ callId: 'call-1', method: 'elicitation/create' }], 'a 2026-07-28 host is told what it lacks');
    // Settled once: a second outcome finds nothing and does nothing.
    assert.equal(await desk.settle(id, { kind: 'expired' }), false);
    assert.equal(asker.replies.length, row.upstream === null ? 0 : 1);
    assert.equal(desk.held(id), undefined);
    await desk.close();
  });
}

test('the compare-and-set decides: when another instance settled it first, what the winner recorded is carried out for the call held here', async () => {
  const database = createMemoryQuestionDatabase();
  const shared = new MemoryQuestionStore({ database });
  // A store that tells of no changes: the desk learns of the other write only from its own compare-and-set failing.
  const quiet: QuestionStore = {
    create: (record, audit, ...more) => shared.create(record, audit, ...more),
    transition: (id, transition) => shared.transition(id, transition),
    audit: (entry) => shared.audit(entry),
    get: (id) => shared.get(id),
    list: (filter) => shared.list(filter),
    auditTrail: (id) => shared.auditTrail(id),
    abandonOpen: (reason, owner) => shared.abandonOpen(reason, owner),
    close: () => shared.close(),
  };
  const { desk, asker, host, ask } = setup({ store: quiet });
  const opened = await desk.open(ask({ route: 'both' }));
  assert.ok(opened);
  const other = new MemoryQuestionStore({ database });
  const answer = { action: 'accept' as const, content: { ticket: 'OP-3' } };
  await other.transition(opened.record.id, { from: ['delivered'], to: 'answered', answer, answeredBy: { kind: 'operator', name: 'bob' }, audit: { actor: 'operator:bob', action: 'answered' } });
  assert.equal(await desk.settle(opened.record.id, { kind: 'call-cancelled' }), false, 'this outcome lost');
  assert.deepEqual(asker.resumed, [CALL]);
  assert.deepEqual(asker.replies, [{ id: UPSTREAM_ID, result: answer, answeredBy: 'the operator bob' }], 'the winner\'s answer reaches the asker held here');
  assert.deepEqual(host.withdrawn.map((w) => w.reason), ['settled by an operator']);
  assert.deepEqual((await shared.auditTrail(opened.record.id)).map((line) => line.action), ['created', 'delivered', 'answered'], 'written once, by the winner');
});

test('asked and answered: two store writes (opened delivered in one transaction, with both audit lines)', async () => {
  const inner = new MemoryQuestionStore();
  const writes: string[] = [];
  const counting: QuestionStore = Object.assign(Object.create(inner) as QuestionStore, {
    create: (record: Parameters<QuestionStore['create']>[0], audit: AuditLine, ...more: AuditLine[]) => {
      writes.push(`create ${record.state}`);
      return inner.create(record, audit, ...more);
    },
    transition: (id: string, transition: Parameters<QuestionStore['transition']>[1]) => {
      writes.push(`transition ${transition.to}`);
      return inner.transition(id, transition);
    },
    audit: (entry: Parameters<QuestionStore['audit']>[0]) => {
      writes.push(`audit ${entry.action}`);
      return inner.audit(entry);
    },
  });
  const { desk, ask } = setup({ store: counting });
  const events: string[] = [];
  desk.subscribe((event) => events.push(`${event.type}:${event.question.state}`));
  const opened = await desk.open(ask());
  assert.ok(opened);
  assert.ok(await desk.settle(opened.record.id, hostAnswer({ action: 'decline' })));
  assert.deepEqual(writes, ['create delivered', 'transition declined']);
  assert.deepEqual((await inner.auditTrail(opened.record.id)).map((line) => [line.action, line.detail]), [
    ['created', { audience: 'host' }],
    ['delivered', { to: 'host', hostRequestId: 'sb-1', via: 'request' }],
    ['declined', undefined],
  ]);
  assert.deepEqual(events, ['created:pending', 'updated:delivered', 'updated:declined'], 'operators see what they always saw');
});

test('host keys are the desk\'s own (no module-wide counter), unique across sessions; each session knows only its own', async () => {
  const { desk, seat, ask } = setup();
  const other = desk.seat(fakeHost('s-2'));
  const first = await desk.open(ask());
  const elsewhere = await desk.open(ask({ seat: other }));
  assert.deepEqual([first?.hostKey, elsewhere?.hostKey], ['sb-1', 'sb-2']);
  assert.deepEqual([[...seat.keys.keys()], [...other.keys.keys()]], [['sb-1'], ['sb-2']]);
  const again = setup();
  assert.equal((await again.desk.open(again.ask()))?.hostKey, 'sb-1', 'a second desk counts from one');
  await Promise.all([desk.close(), again.desk.close()]);
});
