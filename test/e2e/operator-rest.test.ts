/**
 * @module e2e/operator-rest.test: the operator REST API of a real `switchboard serve`: a question its host cannot take is
 * answered by an operator, refused answers (token, schema, settled, another session's forgery) change nothing, with
 * `both` the first answer wins and the host is told, and a multi-select a 2025-06-18 host cannot receive reaches the
 * upstream from an operator exactly as given.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { restartApprovalParams } from '../../examples/incident-desk/tools/restart-approval.js';
import { type ElicitShape, SHAPE_FIELD, shapeParams } from '../fixtures/lab-upstream/elicit-shapes.js';
import { type RunningGateway, startGateway } from './harness/gateway.js';
import { type ApiErrorBody, type AuditLine, OperatorApi, type QuestionDetail, type QuestionView, settlement } from './harness/operator-api.js';
import { RawHost } from './harness/raw-host.js';
import type { WireMessage } from './harness/sse-reader.js';
import { isRequest, isToolError, toolText } from './harness/tool-results.js';
import { incidentDeskStdio, labStdio, type UpstreamEntry } from './harness/upstreams.js';

type TestContext = { after(fn: () => Promise<void>): void };

const TOKEN = 'e2e-operator-token-7Qx2mVb9';
const OPERATOR = 'Ada';
const OLD = '2025-06-18';
const NEW = '2025-11-25';
const APPROVE = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } as const;

/** A gateway whose questions follow `route`, with the operator console and REST API behind TOKEN. */
function startOperatorGateway(route: string, upstreams: Record<string, UpstreamEntry>): Promise<RunningGateway> {
  return startGateway({ upstreams, questions: { route }, console: { token: TOKEN } });
}

async function connect(t: TestContext, gateway: RunningGateway, protocolVersion: string, capabilities: Record<string, unknown>): Promise<RawHost> {
  const host = await RawHost.connect(gateway.url, { protocolVersion, capabilities });
  assert.equal(host.protocolVersion, protocolVersion);
  t.after(() => host.close());
  return host;
}

/** The body of a 200 answer. */
function answeredQuestion(json: unknown): QuestionView {
  const question = (json as { question?: QuestionView } | undefined)?.question;
  assert.ok(question, `expected {question}, got ${JSON.stringify(json)}`);
  return question;
}

function apiError(json: unknown): ApiErrorBody['error'] {
  const error = (json as ApiErrorBody | undefined)?.error;
  assert.ok(error, `expected {error}, got ${JSON.stringify(json)}`);
  return error;
}

/** What is left of a call's stream: no question to the host, and a successful result, whose text it returns. */
function finalText(messages: readonly WireMessage[], id: number): string {
  assert.deepEqual(messages.filter(isRequest), [], 'the host is never asked');
  const result = messages.find((message) => message.id === id && message.method === undefined);
  assert.ok(result, JSON.stringify(messages));
  assert.equal(isToolError(result), false, JSON.stringify(result));
  return toolText(result);
}

const actions = (audit: readonly AuditLine[]): string[] => audit.map((line) => `${line.actor} ${line.action}`);

describe('host-then-operator: a host that declared no elicitation; the desk\'s question goes to the operators (switchboard serve, incident desk over stdio)', () => {
  let gateway: RunningGateway;
  let api: OperatorApi;
  before(async () => {
    gateway = await startOperatorGateway('host-then-operator', { desk: incidentDeskStdio() });
    api = new OperatorApi(gateway.url, TOKEN, OPERATOR);
  });
  after(() => gateway?.stop());

  test('the question is listed as delivered, as the desk asked it; the operator\'s answer completes the host\'s call', async (t) => {
    const host = await connect(t, gateway, OLD, {});
    const known = await api.ids();
    const askedAfter = Date.now();
    const call = await host.callTool(1, 'restart_service', { service: 'payments-api' });

    const question = await api.awaitNewQuestion(known, 'state=delivered');
    assert.equal(typeof question.id, 'string');
    assert.notEqual(question.id, '');
    assert.equal(question.state, 'delivered');
    assert.equal(question.method, 'elicitation/create');
    assert.deepEqual(question.params, restartApprovalParams('payments-api', OLD), 'the params exactly as the desk asked (at the host\'s revision)');
    assert.equal(question.upstream, 'desk');
    assert.equal(question.tool, 'restart_service');
    assert.equal(question.audience, 'operator');
    assert.equal(question.hostParams, undefined, 'nothing was sent to the host');
    assert.equal(question.hostRevision, OLD);
    const created = Date.parse(question.createdAt);
    assert.equal(new Date(created).toISOString(), question.createdAt, 'createdAt is an ISO time');
    assert.ok(created >= askedAfter - 1_000 && created <= Date.now() + 1_000, `createdAt ${question.createdAt} is the time of the call`);
    assert.deepEqual((await api.list('state=delivered')).find((listed) => listed.id === question.id), question, 'the record is stable');

    const answered = await api.answer(question.id, APPROVE);
    assert.equal(answered.status, 200, answered.text);
    const settled = answeredQuestion(answered.json);
    assert.equal(settled.state, 'answered');
    assert.deepEqual(settled.answer, APPROVE);
    assert.deepEqual(settled.answeredBy, { kind: 'operator', name: OPERATOR });

    assert.equal(finalText(await call.rest(), 1), 'RESTARTED payments-api under CHG-2291');
    const detail = await api.detail(question.id);
    assert.deepEqual(detail.question, settled);
    assert.deepEqual(actions(detail.audit), ['gateway created', 'gateway delivered', `operator:${OPERATOR} answered`]);
  });

  test('wrong token, schema violations and a second answer are refused; none changes the record, the audit gains only rejected-answer lines', async (t) => {
    const host = await connect(t, gateway, OLD, {});
    const known = await api.ids();
    const call = await host.callTool(2, 'restart_service', { service: 'payments-api' });
    const question = await api.awaitNewQuestion(known);
    let before: QuestionDetail = await api.detail(question.id);

    /** The record must be as it was; the audit may only have gained `rejected` lines, all rejected-answer. */
    async function expectUnchanged(label: string, rejected: number): Promise<AuditLine[]> {
      const now = await api.detail(question.id);
      assert.deepEqual(settlement(now.question), settlement(before.question), `${label}: state, answer and answeredBy unchanged`);
      assert.equal(now.question.updatedAt, before.question.updatedAt, `${label}: updatedAt unchanged`);
      assert.deepEqual(now.audit.slice(0, before.audit.length), before.audit, `${label}: the trail so far is untouched`);
      const added = now.audit.slice(before.audit.length);
      assert.deepEqual(actions(added), Array<string>(rejected).fill(`operator:${OPERATOR} rejected-answer`), `${label}: ${JSON.stringify(added)}`);
      before = now;
      return added;
    }

    const WRONG = 'not-the-operator-token-4f1c';
    for (const [label, token] of [['a wrong token', WRONG], ['no token', null]] as const) {
      for (const [method, path, body] of [
        ['POST', `/api/questions/${question.id}/answer`, APPROVE],
        ['GET', `/api/questions/${question.id}`, undefined],
      ] as const) {
        const reply = await api.send(method, path, { token, body });
        assert.equal(reply.status, 401, `${label}, ${method}: ${reply.text}`);
        assert.match(reply.headers.get('www-authenticate') ?? '', /^Bearer\b/);
        assert.equal(apiError(reply.json).code, 'UNAUTHORIZED');
        assert.ok(!reply.text.includes(WRONG) && !reply.text.includes(TOKEN), `the body never carries a token: ${reply.text}`);
      }
      await expectUnchanged(label, 0);
    }

    const violations = [
      { label: 'missing ticket', content: { confirm: true }, field: 'ticket' },
      { label: 'ticket of the wrong type', content: { confirm: true, ticket: 2291 }, field: 'ticket' },
      { label: 'confirm of the wrong type', content: { confirm: 'yes', ticket: 'CHG-1' }, field: 'confirm' },
    ];
    for (const { label, content, field } of violations) {
      const reply = await api.answer(question.id, { action: 'accept', content });
      assert.equal(reply.status, 400, `${label}: ${reply.text}`);
      const error = apiError(reply.json);
      assert.equal(error.code, 'INVALID_ANSWER', label);
      assert.equal(error.field, field, `${label}: ${reply.text}`);
      const [line] = await expectUnchanged(label, 1);
      assert.equal(line?.detail?.field, field, `${label}: the audit line names the field`);
    }
    assert.deepEqual(call.seen, [], 'the host\'s call is still waiting, and was never asked');

    const answered = await api.answer(question.id, APPROVE);
    assert.equal(answered.status, 200, `the question stayed open after the refused answers: ${answered.text}`);
    assert.equal(finalText(await call.rest(), 2), 'RESTARTED payments-api under CHG-2291');
    before = await api.detail(question.id);
    assert.equal(before.question.state, 'answered');

    const again = await api.answer(question.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-9999' } });
    assert.equal(again.status, 409, again.text);
    assert.equal(apiError(again.json).code, 'ALREADY_SETTLED');
    const standing = (again.json as ApiErrorBody).question;
    assert.ok(standing, `the 409 carries the question: ${again.text}`);
    assert.deepEqual(settlement(standing), settlement(before.question), 'the 409 shows the record as it stands');
    await expectUnchanged('a second answer', 1);
    assert.deepEqual(before.question.answer, APPROVE);
    assert.deepEqual(before.question.answeredBy, { kind: 'operator', name: OPERATOR });
  });
});

describe('route: host: another session cannot answer a host\'s question (switchboard serve, incident desk over stdio)', () => {
  let gateway: RunningGateway;
  let api: OperatorApi;
  before(async () => {
    gateway = await startOperatorGateway('host', { desk: incidentDeskStdio() });
    api = new OperatorApi(gateway.url, TOKEN, OPERATOR);
  });
  after(() => gateway?.stop());

  test('host B posting a response with host A\'s question id on its own session is refused; A\'s question stays open and A answers it', async (t) => {
    const hostA = await connect(t, gateway, OLD, { elicitation: {} });
    const hostB = await connect(t, gateway, OLD, { elicitation: {} });
    const known = await api.ids();
    const call = await hostA.callTool(1, 'restart_service', { service: 'payments-api' });
    const asked = await call.expectNext();
    assert.equal(asked.method, 'elicitation/create', JSON.stringify(asked));
    const question = await api.awaitNewQuestion(known, 'state=delivered');
    assert.equal(question.audience, 'host');
    const before = await api.detail(question.id);

    const forged = await hostB.answer(asked.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-FORGED' } });
    assert.ok(forged.status >= 400 && forged.status < 500, `refused with a 4xx: ${forged.status} ${forged.text}`);
    assert.ok(forged.json?.error, `a JSON-RPC error: ${forged.text}`);

    const after = await api.detail(question.id);
    assert.equal(after.question.state, 'delivered', 'still open');
    assert.deepEqual(settlement(after.question), settlement(before.question));
    assert.deepEqual(after.audit, before.audit);
    assert.deepEqual(call.seen, [asked], 'A was told nothing: its question is not withdrawn');

    const answered = await hostA.answer(asked.id, APPROVE);
    assert.equal(answered.status, 202, answered.text);
    assert.equal(finalText(await call.rest(), 1), 'RESTARTED payments-api under CHG-2291', 'A\'s answer, not the forged one');
    const settled = (await api.detail(question.id)).question;
    assert.equal(settled.state, 'answered');
    assert.deepEqual(settled.answeredBy, { kind: 'host', sessionId: question.hostSessionId });
  });
});

describe('route: both: the operator answers first (switchboard serve, incident desk over stdio)', () => {
  let gateway: RunningGateway;
  let api: OperatorApi;
  before(async () => {
    gateway = await startOperatorGateway('both', { desk: incidentDeskStdio() });
    api = new OperatorApi(gateway.url, TOKEN, OPERATOR);
  });
  after(() => gateway?.stop());

  test('the host\'s copy is cancelled on its call stream, the call completes with the operator\'s ticket, a late host answer changes nothing', async (t) => {
    const host = await connect(t, gateway, NEW, { elicitation: { form: {} } });
    const known = await api.ids();
    const call = await host.callTool(1, 'restart_service', { service: 'payments-api' });
    const asked = await call.expectNext();
    assert.equal(asked.method, 'elicitation/create', JSON.stringify(asked));
    assert.deepEqual(asked.params, restartApprovalParams('payments-api', NEW));
    const question = await api.awaitNewQuestion(known, 'state=delivered');
    assert.equal(question.audience, 'both');

    const operatorAnswer = { action: 'accept', content: { confirm: true, ticket: 'CHG-OPS-7' } };
    const answered = await api.answer(question.id, operatorAnswer);
    assert.equal(answered.status, 200, answered.text);

    const rest = await call.rest();
    const cancelledAt = rest.findIndex((message) => message.method === 'notifications/cancelled');
    const resultAt = rest.findIndex((message) => message.id === 1 && message.method === undefined);
    assert.ok(cancelledAt !== -1, `the call stream carries notifications/cancelled: ${JSON.stringify(rest)}`);
    assert.equal(rest[cancelledAt]?.params?.requestId, asked.id, 'for the question the host holds');
    assert.ok(resultAt > cancelledAt, `the cancellation comes before the result: ${JSON.stringify(rest)}`);
    assert.equal(finalText(rest, 1), 'RESTARTED payments-api under CHG-OPS-7');

    const late = await host.answer(asked.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-HOST-8' } });
    assert.ok(late.status === 202 || (late.status >= 400 && late.status < 500), `refused or ignored: ${late.status} ${late.text}`);

    const detail = await api.detail(question.id);
    assert.equal(detail.question.state, 'answered');
    assert.deepEqual(detail.question.answer, operatorAnswer);
    assert.deepEqual(detail.question.answeredBy, { kind: 'operator', name: OPERATOR });
    assert.deepEqual(
      detail.audit.filter((line) => !['created', 'delivered', 'rejected-answer'].includes(line.action)).map((line) => `${line.actor} ${line.action}`),
      [`operator:${OPERATOR} answered`],
      'settled once, by the operator',
    );
  });
});

describe('multi-select for a 2025-06-18 host: the lab (shared, 2025-11-25) asks, an operator answers (switchboard serve)', () => {
  let gateway: RunningGateway;
  let api: OperatorApi;
  before(async () => {
    gateway = await startOperatorGateway('host-then-operator', { lab: labStdio({ sharing: 'shared' }) });
    api = new OperatorApi(gateway.url, TOKEN, OPERATOR);
  });
  after(() => gateway?.stop());

  test('the lab\'s session is at 2025-11-25', async () => {
    const { status, body } = await gateway.health();
    assert.equal(status, 200);
    assert.equal(body.upstreams.find((upstream) => upstream.name === 'lab')?.protocolVersion, NEW, JSON.stringify(body));
  });

  const CASES: { shape: ElicitShape; invalid: unknown; answer: string[] }[] = [
    { shape: 'multi-untitled', invalid: ['eu', 'mars'], answer: ['ap', 'eu'] },
    { shape: 'multi-titled', invalid: 'us', answer: ['us'] },
  ];
  for (const { shape, invalid, answer } of CASES) {
    test(`${shape}: listed for the operators with the lab's params; the lab receives exactly the array the operator sent`, async (t) => {
      const host = await connect(t, gateway, OLD, { elicitation: {} });
      const known = await api.ids();
      const call = await host.callTool(1, 'elicit_shape', { shape });
      const question = await api.awaitNewQuestion(known, 'state=delivered');
      assert.equal(question.audience, 'operator');
      assert.match(question.audienceReason ?? '', /multi-select/, 'why the host was not asked');
      assert.deepEqual(question.params, shapeParams(shape));
      assert.equal(question.hostParams, undefined);

      const refused = await api.answer(question.id, { action: 'accept', content: { [SHAPE_FIELD]: invalid } });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(apiError(refused.json).field, SHAPE_FIELD);

      const answered = await api.answer(question.id, { action: 'accept', content: { [SHAPE_FIELD]: answer } });
      assert.equal(answered.status, 200, answered.text);
      assert.equal(finalText(await call.rest(), 1), JSON.stringify({ action: 'accept', content: { [SHAPE_FIELD]: answer } }));
    });
  }
});
