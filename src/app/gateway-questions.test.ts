/** @module Tests of questions through the desk: operator answers, `both`, consent, expiry, multi-select, sampling, and the record kept. */

import { tokenOperator } from '../access/operator-principal.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QuestionDesk } from '../questions/desk.js';
import type { QuestionRoute } from '../config/types.js';
import type { JsonObject, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import { within } from '../core/testing/deadlines.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import type { QuestionPolicyConfig } from '../questions/route-policy.js';
import { QuestionPolicy } from '../questions/route-policy.js';
import type { FakeUpstream, ToolHandler } from '../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, connectHost, legacySession, openQuestion, spec } from './testing/gateway-doubles.js';

const TICKET = { type: 'object', properties: { confirm: { type: 'boolean' }, ticket: { type: 'string' } }, required: ['confirm', 'ticket'] };

/** A tool that elicits with `params` and returns what it was answered. */
function elicits(params: JsonObject): ToolHandler {
  return async (_call, server) => {
    const answer = await server.ask('elicitation/create', params);
    return { content: [{ type: 'text', text: JSON.stringify('result' in answer ? answer.result : answer) }] };
  };
}

function setup(tools: Record<string, ToolHandler>, policy?: QuestionPolicyConfig) {
  const up = fakeUpstreamFactory(tools);
  const desk = new QuestionDesk({ store: new MemoryQuestionStore(), logger: silentLogger, operatorAvailable: true });
  const gateway = createGateway(config([spec('desk')]), {
    logger: silentLogger,
    openTransport: () => up.open(),
    questions: { desk, policy: new QuestionPolicy(policy ?? { defaults: { route: 'host-then-operator', timeoutMs: 60_000 } }) },
  });
  return { up, desk, gateway };
}

function textOf(response: unknown): string {
  const result = (response as { result?: { content?: { text?: string }[] } }).result;
  return result?.content?.[0]?.text ?? JSON.stringify(response);
}

test('a host without elicitation: the upstream is offered it anyway, the operator answers, the call completes', async () => {
  const { up, desk, gateway } = setup({ restart: elicits({ message: 'Restart?', requestedSchema: TICKET }) });
  const host = await connectHost(gateway, {}, '2025-06-18');
  const call = host.request('tools/call', { name: 'restart', arguments: {} });
  const question = await openQuestion(desk);
  assert.deepEqual((up.servers.at(-1) as FakeUpstream).initializeParams?.capabilities, { elicitation: {} });
  assert.equal(question.audience, 'operator');
  assert.equal(question.origin.tool, 'restart');
  assert.equal(question.origin.hostSessionId, host.session.id);
  assert.match(question.audienceReason ?? '', /did not declare the elicitation capability/);

  const refused = await desk.answer(question.id, { action: 'accept', content: { confirm: 'yes' } }, tokenOperator('alice'));
  assert.equal(refused.ok ? 'ok' : refused.kind, 'invalid', 'checked against the upstream schema');
  const answered = await desk.answer(question.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } }, tokenOperator('alice'));
  assert.ok(answered.ok);
  assert.equal(textOf(await call), JSON.stringify({ action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } }));
  assert.equal(host.sent.some((s) => 'method' in s.message && s.message.method === 'elicitation/create'), false, 'the host was never asked');
  await gateway.close();
});

test('both: the operator answers first, the host request is cancelled, the upstream gets exactly one answer', async () => {
  const { up, desk, gateway } = setup({ restart: elicits({ message: 'Restart?', requestedSchema: TICKET }) }, { defaults: { route: 'both', timeoutMs: 60_000 } });
  const host = await connectHost(gateway, { elicitation: { form: {} } });
  const call = host.request('tools/call', { name: 'restart', arguments: {} }, 'call-1');
  const asked = await host.question('elicitation/create');
  const hostId = (asked.message as JsonRpcRequest).id;
  assert.equal(asked.related, 'call-1');
  const question = await openQuestion(desk);
  assert.equal(question.audience, 'both');
  assert.ok((await desk.answer(question.id, { action: 'accept', content: { confirm: true, ticket: 'OP-1' } }, tokenOperator('alice'))).ok);
  const cancelled = await host.waitFor((s) => 'method' in s.message && s.message.method === 'notifications/cancelled');
  assert.deepEqual((cancelled.message as { params: JsonObject }).params, { requestId: hostId, reason: 'settled by an operator' });
  assert.equal(cancelled.related, 'call-1');
  assert.match(textOf(await call), /OP-1/);
  // A late host answer goes nowhere: the upstream was answered once.
  host.session.receive({ jsonrpc: '2.0', id: hostId, result: { action: 'accept', content: { confirm: true, ticket: 'HOST-1' } } });
  await new Promise((r) => setTimeout(r, 20));
  const answers = (up.servers.at(-1) as FakeUpstream).received.filter((m) => !('method' in m) && m.id === 'up-1');
  assert.equal(answers.length, 1);
  const record = await desk.get(question.id);
  assert.deepEqual(record?.question.answeredBy, { kind: 'operator', name: 'alice' });
  await gateway.close();
});

test('both: the host answers first and the operator is told it is settled (409)', async () => {
  const { desk, gateway } = setup({ restart: elicits({ message: 'Restart?', requestedSchema: TICKET }) }, { defaults: { route: 'both', timeoutMs: 60_000 } });
  const host = await connectHost(gateway, { elicitation: { form: {} } });
  const call = host.request('tools/call', { name: 'restart', arguments: {} });
  const asked = await host.question('elicitation/create');
  const question = await openQuestion(desk);
  host.session.receive({ jsonrpc: '2.0', id: (asked.message as JsonRpcRequest).id, result: { action: 'accept', content: { confirm: true, ticket: 'HOST-1' } } });
  assert.match(textOf(await call), /HOST-1/);
  const late = await desk.answer(question.id, { action: 'decline' }, tokenOperator('alice'));
  assert.equal(late.ok ? 'ok' : late.kind, 'settled');
  assert.deepEqual((await desk.get(question.id))?.question.answeredBy, { kind: 'host', sessionId: host.session.id });
  await gateway.close();
});

test('a multi-select a 2025-06-18 host cannot take goes to the operator and reaches the upstream as a string array', async () => {
  const regions = { type: 'object', properties: { regions: { type: 'array', items: { type: 'string', enum: ['eu', 'us', 'ap'] } } }, required: ['regions'] };
  const { desk, gateway } = setup({ deploy: elicits({ mode: 'form', message: 'Where?', requestedSchema: regions }) });
  const host = await connectHost(gateway, { elicitation: {} }, '2025-06-18');
  const call = host.request('tools/call', { name: 'deploy', arguments: {} });
  const question = await openQuestion(desk);
  assert.equal(question.audience, 'operator');
  assert.ok((await desk.answer(question.id, { action: 'accept', content: { regions: ['eu', 'ap'] } }, tokenOperator('alice'))).ok);
  assert.equal(textOf(await call), JSON.stringify({ action: 'accept', content: { regions: ['eu', 'ap'] } }));
  await gateway.close();
});

test('by default a consent question (a lone approval, a password field) goes to the host that can take it, not to an operator', async () => {
  const approve = elicits({ message: 'Approve?', requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } } } });
  const secret = elicits({ message: 'Key?', requestedSchema: { type: 'object', properties: { key: { type: 'string', format: 'password' } } } });
  const { desk, gateway } = setup({ approve, secret });
  const host = await connectHost(gateway, { elicitation: { form: {} } });
  for (const [tool, answer] of [['approve', { approve: true }], ['secret', { key: 's3cret' }]] as const) {
    const call = host.request('tools/call', { name: tool, arguments: {} });
    const asked = await host.question('elicitation/create');
    host.session.receive({ jsonrpc: '2.0', id: (asked.message as JsonRpcRequest).id, result: { action: 'accept', content: answer } });
    assert.equal(textOf(await call), JSON.stringify({ action: 'accept', content: answer }));
    host.sent.length = 0;
  }
  const settled = await desk.list({ state: 'answered' });
  assert.deepEqual(settled.map((q) => [q.audience, q.answeredBy?.kind]), [['host', 'host'], ['host', 'host']]);
  await gateway.close();
});

test('questions.consent: operator sends a lone approval to a person even though the host could answer; route host keeps it with the host', async () => {
  const approve = elicits({ message: 'Approve?', requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } } } });
  const first = setup({ approve }, { defaults: { route: 'host-then-operator', timeoutMs: 60_000 }, consent: 'operator' });
  const host = await connectHost(first.gateway, { elicitation: { form: {} } });
  const call = host.request('tools/call', { name: 'approve', arguments: {} });
  const question = await openQuestion(first.desk);
  assert.equal(question.audience, 'operator');
  assert.ok((await first.desk.answer(question.id, { action: 'decline' }, tokenOperator('alice'))).ok);
  assert.equal(textOf(await call), JSON.stringify({ action: 'decline' }));
  await first.gateway.close();

  const second = setup({ approve }, { defaults: { route: 'host-then-operator', timeoutMs: 60_000 }, consent: 'operator', upstreams: { desk: { tools: { approve: { route: 'host' } } } } });
  const host2 = await connectHost(second.gateway, { elicitation: { form: {} } });
  void host2.request('tools/call', { name: 'approve', arguments: {} }).catch(() => undefined);
  const asked = await host2.question('elicitation/create');
  host2.session.receive({ jsonrpc: '2.0', id: (asked.message as JsonRpcRequest).id, result: { action: 'accept', content: { approve: true } } });
  await second.gateway.close();
});

/** The JSON-RPC error an `elicits`/`samples` tool was answered with, as its text shows it. */
function errorOf(response: unknown): { code?: number; message?: string; data?: { reason?: string } } | undefined {
  return (JSON.parse(textOf(response)) as { error?: { code?: number; message?: string; data?: { reason?: string } } }).error;
}

test('expiry answers cancel; route host with an incapable host gets the error a host lacking elicitation sends, and both are on record', async () => {
  const { desk, gateway } = setup({ restart: elicits({ message: 'Restart?', requestedSchema: TICKET }) }, { defaults: { route: 'operator', timeoutMs: 30 } });
  const host = await connectHost(gateway, {});
  assert.equal(textOf(await host.request('tools/call', { name: 'restart', arguments: {} })), JSON.stringify({ action: 'cancel' }));
  const [expired] = await desk.list({ state: 'expired' });
  assert.ok(expired, 'the expired question is on record');
  await gateway.close();

  const hostOnly = setup({ restart: elicits({ message: 'Restart?', requestedSchema: TICKET }) }, { defaults: { route: 'host', timeoutMs: 60_000 } });
  const plain = await connectHost(hostOnly.gateway, {}, '2025-06-18');
  const refused = errorOf(await plain.request('tools/call', { name: 'restart', arguments: {} }));
  assert.equal(refused?.code, -32601, 'not cancel: nobody cancelled it');
  assert.equal(refused?.data?.reason, 'GW_ERR_HOST_LACKS_CAPABILITY');
  assert.match(refused?.message ?? '', /did not declare the elicitation capability/);
  assert.deepEqual((hostOnly.up.servers.at(-1) as FakeUpstream).initializeParams?.capabilities, {}, 'route host: nothing declared the host did not');
  const [cancelled] = await hostOnly.desk.list({ state: 'cancelled' });
  assert.equal(cancelled?.audience, 'none');
  await hostOnly.gateway.close();
});

/** A gateway with no operator under `route`, whose upstream asks a multi-select (`deploy`), an approval (`restart`) or sampling (`summarize`). */
function noOperatorGateway(route: QuestionRoute) {
  const regions = { type: 'object', properties: { regions: { type: 'array', items: { type: 'string', enum: ['eu', 'us', 'ap'] } } }, required: ['regions'] };
  const up = fakeUpstreamFactory({
    deploy: elicits({ mode: 'form', message: 'Where?', requestedSchema: regions }),
    restart: elicits({ message: 'Restart?', requestedSchema: TICKET }),
    summarize: async (_call, server) => {
      const answer = await server.ask('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'Sum up' } }], maxTokens: 10 });
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    },
  });
  const desk = new QuestionDesk({ store: new MemoryQuestionStore(), logger: silentLogger, operatorAvailable: false });
  const gateway = createGateway(config([spec('desk')]), {
    logger: silentLogger,
    openTransport: () => up.open(),
    questions: { desk, policy: new QuestionPolicy({ defaults: { route, timeoutMs: 60_000 } }) },
  });
  return { desk, gateway };
}

test('nobody can answer (no operator): a multi-select withheld from a 2025-06-18 host and sampling for a host without it get -32601 GW_ERR_HOST_LACKS_CAPABILITY', async () => {
  const { desk, gateway } = noOperatorGateway('host-then-operator');
  const host = await connectHost(gateway, { elicitation: {} }, '2025-06-18');
  const withheld = errorOf(await host.request('tools/call', { name: 'deploy', arguments: {} }));
  assert.equal(withheld?.code, -32601);
  assert.equal(withheld?.data?.reason, 'GW_ERR_HOST_LACKS_CAPABILITY');
  const unsampled = errorOf(await host.request('tools/call', { name: 'summarize', arguments: {} }));
  assert.equal(unsampled?.code, -32601);
  assert.equal(unsampled?.data?.reason, 'GW_ERR_HOST_LACKS_CAPABILITY');
  assert.match(unsampled?.message ?? '', /did not declare the sampling capability/);
  assert.equal(host.sent.some((s) => 'method' in s.message && s.message.method !== 'notifications/message'), false, 'the host was never asked');
  const settled = await desk.list({ state: 'cancelled' });
  assert.deepEqual(settled.map((q) => q.audience), ['none', 'none']);
  await gateway.close();
});

test('route operator with no operator: nobody may answer, so the upstream gets -32601 GW_ERR_HOST_LACKS_CAPABILITY (never cancel), even when the host could take it', async () => {
  const { gateway } = noOperatorGateway('operator');
  const host = await connectHost(gateway, { elicitation: { form: {} }, sampling: {} });
  for (const tool of ['restart', 'summarize']) {
    const refused = errorOf(await host.request('tools/call', { name: tool, arguments: {} }));
    assert.equal(refused?.code, -32601, tool);
    assert.equal(refused?.data?.reason, 'GW_ERR_HOST_LACKS_CAPABILITY', tool);
    assert.match(refused?.message ?? '', /no operator/, tool);
  }
  assert.equal(host.sent.some((s) => 'method' in s.message && s.message.method !== 'notifications/message'), false, 'the host was never asked');
  await gateway.close();
});

test('sampling for a host without it: an operator reply becomes the result; a decline becomes an error', async () => {
  const sample: ToolHandler = async (_call, server) => {
    const answer = await server.ask('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }], maxTokens: 50 });
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  };
  const { desk, gateway } = setup({ sample });
  const host = await connectHost(gateway, {});
  const call = host.request('tools/call', { name: 'sample', arguments: {} });
  const question = await openQuestion(desk);
  const bad = await desk.answer(question.id, { action: 'accept', result: { role: 'user', content: { type: 'text', text: 'x' }, model: 'op' } }, tokenOperator('alice'));
  assert.equal(bad.ok ? 'ok' : bad.kind, 'invalid');
  const reply = { role: 'assistant', content: { type: 'text', text: 'All quiet.' }, model: 'operator', stopReason: 'endTurn' };
  assert.ok((await desk.answer(question.id, { action: 'accept', result: reply }, tokenOperator('alice'))).ok);
  assert.deepEqual(JSON.parse(textOf(await call)).result, reply);

  const again = host.request('tools/call', { name: 'sample', arguments: {} });
  const second = await openQuestion(desk);
  assert.ok((await desk.answer(second.id, { action: 'decline' }, tokenOperator('alice'))).ok);
  const error = JSON.parse(textOf(await again)).error;
  assert.equal(error.code, -1);
  assert.match(error.message, /declined by an operator/);
  await gateway.close();
});

test('a host that closes abandons its open questions on record, and the upstream is told', async () => {
  const { desk, gateway } = setup({ restart: elicits({ message: 'Restart?', requestedSchema: TICKET }) }, { defaults: { route: 'operator', timeoutMs: 60_000 } });
  const host = await connectHost(gateway, {});
  void host.request('tools/call', { name: 'restart', arguments: {} }).catch(() => undefined);
  const question = await openQuestion(desk);
  await host.session.close();
  for (let i = 0; i < 100 && (await desk.get(question.id))?.question.state !== 'abandoned'; i += 1) await new Promise((r) => setTimeout(r, 5));
  assert.equal((await desk.get(question.id))?.question.state, 'abandoned');
  const late = await desk.answer(question.id, { action: 'decline' }, tokenOperator('alice'));
  assert.equal(late.ok ? 'ok' : late.kind, 'settled');
  await gateway.close();
});

test('a password field: the upstream gets what the operator or the host typed, the desk keeps [redacted]', async () => {
  const LOGIN = { type: 'object', properties: { user: { type: 'string' }, password: { type: 'string', format: 'password' } }, required: ['password'] };
  const { desk, gateway } = setup({ login: elicits({ mode: 'form', message: 'Sign in', requestedSchema: LOGIN }) }, { defaults: { route: 'both', timeoutMs: 60_000 } });
  const host = await connectHost(gateway, { elicitation: { form: {} } });

  const byOperator = host.request('tools/call', { name: 'login', arguments: {} });
  const first = await openQuestion(desk);
  const answered = await desk.answer(first.id, { action: 'accept', content: { user: 'ada', password: 'op-Secret-1' } }, tokenOperator('alice'));
  assert.ok(answered.ok);
  assert.equal(textOf(await byOperator), JSON.stringify({ action: 'accept', content: { user: 'ada', password: 'op-Secret-1' } }));
  assert.deepEqual(answered.question.answer, { action: 'accept', content: { user: 'ada', password: '[redacted]' } });

  const other = await connectHost(gateway, { elicitation: { form: {} } });
  const byHost = other.request('tools/call', { name: 'login', arguments: {} });
  const asked = await other.question('elicitation/create');
  const second = await openQuestion(desk);
  other.session.receive({ jsonrpc: '2.0', id: (asked.message as JsonRpcRequest).id, result: { action: 'accept', content: { user: 'bo', password: 'host-Secret-2' } } });
  assert.equal(textOf(await byHost), JSON.stringify({ action: 'accept', content: { user: 'bo', password: 'host-Secret-2' } }));
  await gateway.close();
  for (const id of [first.id, second.id]) {
    const kept = JSON.stringify(await desk.get(id));
    assert.equal(/op-Secret-1|host-Secret-2/.test(kept), false, kept);
    assert.match(kept, /"password":"\[redacted\]"/);
  }
});

/** A host at 2025-11-25 with form elicitation, calling `restart` until the question reaches it. */
async function askedHost(policy: QuestionPolicyConfig) {
  const { desk, gateway } = setup({ restart: elicits({ message: 'Restart?', requestedSchema: TICKET }) }, policy);
  const host = await connectHost(gateway, { elicitation: { form: {} } });
  const call = host.request('tools/call', { name: 'restart', arguments: {} });
  const question = await host.question('elicitation/create');
  const id = (question.message as JsonRpcRequest).id;
  return { desk, gateway, host, call, id };
}

const INVALID_CONTENT = { action: 'accept', content: { confirm: 'yes', ticket: 'CHG-1' } };

for (const route of ['host', 'both'] as const) {
  test(`issue 11 item 13 (route ${route}): an invalid host answer settles the question at once; the upstream gets -32602 naming the field`, async () => {
    const { desk, gateway, host, call, id } = await askedHost({ defaults: { route, timeoutMs: 600_000 } });
    host.session.receive({ jsonrpc: '2.0', id, result: INVALID_CONTENT });
    assert.equal(await within(call, 2500), true, 'the call ends without waiting for the question to expire');
    const ended = await call;
    const error = JSON.parse(textOf(ended)).error as { code: number; message: string; data?: { field?: string; reason?: string } };
    assert.equal(error.code, -32602);
    assert.match(error.message, /"confirm"/);
    assert.deepEqual(error.data, { reason: 'GW_ERR_INVALID_ANSWER', field: 'confirm' });
    const [record] = await desk.list({ upstream: 'desk' });
    assert.equal(record?.state, 'cancelled');
    assert.deepEqual(record?.answeredBy, { kind: 'host', sessionId: host.session.id });
    const trail = (await desk.get(record.id))?.audit ?? [];
    const refusal = trail.find((entry) => entry.action === 'rejected-answer');
    assert.equal(refusal?.actor, `host:${host.session.id}`);
    assert.equal(refusal?.detail?.field, 'confirm');
    const late = host.session.receive({ jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } } });
    assert.equal(late.ok ? 'ok' : late.kind, 'unknown', 'a corrected answer comes too late');
    const operator = await desk.answer(record.id, { action: 'decline' }, tokenOperator('alice'));
    assert.equal(operator.ok ? 'ok' : operator.kind, 'settled');
    await gateway.close();
  });
}

test('issue 11 item 13, issue 12: receive gives the edge its verdict from one check, and settles: an invalid answer and a valid one alike', async () => {
  const { gateway, host, call, id } = await askedHost({ defaults: { route: 'host', timeoutMs: 600_000 } });
  const verdict = host.session.receive({ jsonrpc: '2.0', id, result: INVALID_CONTENT });
  assert.equal(verdict.ok, false);
  assert.equal(verdict.ok ? undefined : verdict.kind, 'invalid');
  assert.match(verdict.ok ? '' : verdict.reason, /"confirm"/);
  assert.equal(verdict.ok ? undefined : verdict.field, 'confirm');
  assert.equal(JSON.parse(textOf(await call)).error.code, -32602);
  assert.equal(host.session.receive({ jsonrpc: '2.0', id, result: INVALID_CONTENT }).ok ? 'ok' : 'refused', 'refused', 'the question is gone');

  const second = host.request('tools/call', { name: 'restart', arguments: {} });
  const next = await host.waitFor((s) => 'method' in s.message && s.message.method === 'elicitation/create' && (s.message as JsonRpcRequest).id !== id);
  const nextId = (next.message as JsonRpcRequest).id;
  const good = { jsonrpc: '2.0' as const, id: nextId, result: { action: 'accept', content: { confirm: true, ticket: 'CHG-2' } } };
  assert.deepEqual(host.session.receive(good), { ok: true });
  assert.equal(legacySession(host.session).expectsResponse(nextId), false, 'a valid answer is taken at once');
  const again = host.session.receive(good);
  assert.equal(again.ok ? 'ok' : again.kind, 'unknown', 'the same answer twice: the second names no question, and changes nothing');
  assert.equal(textOf(await second), JSON.stringify(good.result));
  await gateway.close();
});

test('issue 11 item 13: an operator\'s invalid answer still leaves the question open', async () => {
  const { desk, gateway, call } = await askedHost({ defaults: { route: 'both', timeoutMs: 600_000 } });
  const question = await openQuestion(desk);
  const refused = await desk.answer(question.id, { action: 'accept', content: { confirm: 'yes', ticket: 'CHG-1' } }, tokenOperator('alice'));
  assert.equal(refused.ok ? 'ok' : refused.kind, 'invalid');
  assert.equal((await desk.get(question.id))?.question.state, 'delivered');
  assert.ok((await desk.answer(question.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-3' } }, tokenOperator('alice'))).ok);
  assert.equal(textOf(await call), JSON.stringify({ action: 'accept', content: { confirm: true, ticket: 'CHG-3' } }));
  await gateway.close();
});
