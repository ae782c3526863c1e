/** @module Tests of pair 4 for 2026-07-28 hosts: a legacy upstream's mid-call questions parked behind `sb1.` handles and resumed by the retry, the round deadline, cancellation, operators, progress and undeclared capabilities. */

import { tokenOperator } from '../access/operator-principal.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QuestionDesk } from '../questions/desk.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import { silentLogger } from '../core/log.js';
import { QuestionPolicy } from '../questions/route-policy.js';
import type { ToolHandler } from '../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, spec } from './testing/gateway-doubles.js';
import { RESTART, REGION, ACCEPT, keys, modern, serve, resultOf, errorOf, textOf, inputRequired, assertRejected, reseal, payloadOf, deferred, eventually, legacySetup, caller, callsOf, answersOf, cancellationsOf, restart, both, callRestart, createGateway } from './testing/modern-doubles.js';

// ---- pair 4: a legacy upstream asks mid-call -------------------------------------------------------

test('pair 4: the question comes back as input_required with one key and an sb1 handle; the retry resumes the call', async () => {
  const { gateway, up } = legacySetup({ restart });
  const first = await serve(gateway, callRestart('c1')).response();
  assert.equal(first.id, 'c1');
  const round = inputRequired(first);
  assert.equal(round.keys.length, 1);
  const [key] = round.keys as [string];
  assert.deepEqual(round.inputRequests[key], { method: 'elicitation/create', params: RESTART });
  assert.match(round.requestState, /^sb1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  assert.equal(payloadOf(round.requestState).k, 'parked');
  const server = caller(up);
  assert.equal(answersOf(server).length, 0, 'the upstream is still waiting');

  const done = await serve(gateway, callRestart('c2', { inputResponses: { [key]: ACCEPT }, requestState: round.requestState })).response();
  assert.equal(done.id, 'c2', 'the retry is answered under its own id');
  assert.equal(resultOf(done).resultType, 'complete');
  assert.equal(textOf(done), JSON.stringify(ACCEPT));
  const answers = answersOf(server);
  assert.equal(answers.length, 1);
  assert.deepEqual((answers[0] as { result: unknown }).result, ACCEPT);
  assert.equal(callsOf(server).length, 1, 'the upstream call was continued, not repeated');
  await gateway.close();
});

test('pair 4: two questions sent together come back together in one round, and one retry answers both', async () => {
  const { gateway, up } = legacySetup({ both });
  const round = inputRequired(await serve(gateway, modern(1, 'tools/call', { name: 'both', arguments: {} })).response());
  assert.equal(round.keys.length, 2);
  const byMessage = new Map(round.keys.map((key) => [(round.inputRequests[key]?.params as JsonObject).message, key]));
  const restartKey = byMessage.get(RESTART.message);
  const regionKey = byMessage.get(REGION.message);
  assert.ok(restartKey && regionKey);
  const done = await serve(gateway, modern(2, 'tools/call', { name: 'both', arguments: {}, inputResponses: { [restartKey]: ACCEPT, [regionKey]: { action: 'accept', content: { region: 'eu' } } }, requestState: round.requestState })).response();
  assert.equal(resultOf(done).resultType, 'complete');
  assert.equal(textOf(done), JSON.stringify([ACCEPT, { action: 'accept', content: { region: 'eu' } }]));
  assert.equal(answersOf(caller(up)).length, 2);
  await gateway.close();
});

test('pair 4: a missing answer is asked again in a new round with a fresh handle; the given one reaches the upstream at once', async () => {
  const { gateway, up } = legacySetup({ both });
  const call = (id: number, extra: JsonObject = {}) => modern(id, 'tools/call', { name: 'both', arguments: {}, ...extra });
  const round = inputRequired(await serve(gateway, call(1)).response());
  const regionKey = round.keys.find((key) => (round.inputRequests[key]?.params as JsonObject).message === REGION.message);
  const restartKey = round.keys.find((key) => key !== regionKey);
  assert.ok(regionKey && restartKey);

  const again = await serve(gateway, call(2, { inputResponses: { [restartKey]: ACCEPT }, requestState: round.requestState })).response();
  const second = inputRequired(again);
  assert.deepEqual(second.keys, [regionKey], 'only the unanswered question is asked again');
  assert.deepEqual(second.inputRequests[regionKey], { method: 'elicitation/create', params: REGION });
  assert.notEqual(second.requestState, round.requestState, 'a fresh handle');
  assert.notEqual(payloadOf(second.requestState).id, payloadOf(round.requestState).id);
  const server = caller(up);
  assert.equal(answersOf(server).length, 1, 'the given answer went upstream');
  assert.deepEqual((answersOf(server)[0] as { result: unknown }).result, ACCEPT);

  const done = await serve(gateway, call(3, { inputResponses: { [regionKey]: { action: 'accept', content: { region: 'us' } } }, requestState: second.requestState })).response();
  assert.equal(textOf(done), JSON.stringify([ACCEPT, { action: 'accept', content: { region: 'us' } }]));
  await gateway.close();
});

// Issue 11 item 13: an invalid answer settles the question for a 2026-07-28 host too (the handle no longer still works).
test('pair 4: an answer that breaks the requestedSchema is -32602 naming inputResponses.<key>; the question settles: the upstream gets -32602, the call ends, the handle is used up', async () => {
  const { gateway, up } = legacySetup({ restart });
  const round = inputRequired(await serve(gateway, callRestart(1)).response());
  const [key] = round.keys as [string];
  const bad = await serve(gateway, callRestart(2, { inputResponses: { [key]: { action: 'accept', content: { confirm: 'yes' } } }, requestState: round.requestState })).response();
  const error = errorOf(bad);
  assert.equal(error.code, -32602);
  assert.match(error.message, new RegExp(`inputResponses\\.${key}`));
  assert.ok(isObject(error.data));
  assert.equal(error.data.field, `inputResponses.${key}`);
  const server = caller(up);
  await eventually(() => answersOf(server).length === 1, 'the upstream told its question was answered invalidly');
  const upstreamError = (answersOf(server)[0] as { error?: { code: number; message: string; data?: JsonObject } }).error;
  assert.equal(upstreamError?.code, -32602, JSON.stringify(answersOf(server)));
  assert.match(upstreamError?.message ?? '', /field "ticket": required/);
  assert.deepEqual(upstreamError?.data, { reason: 'GW_ERR_INVALID_ANSWER', field: 'ticket' });
  const [call] = callsOf(server);
  await eventually(() => cancellationsOf(server).some((c) => c.requestId === call?.id), 'the upstream call cancelled');

  const late = await serve(gateway, callRestart(3, { inputResponses: { [key]: ACCEPT }, requestState: round.requestState })).response();
  assert.equal(errorOf(late).code, -32602);
  assert.equal((errorOf(late).data as JsonObject).failure, 'replayed', JSON.stringify(errorOf(late)));
  await gateway.close();
});

// ---- more of pair 4: what a retry may change, operators, ids, idle stand-ins ------------------------

test('a retry may carry another progress token (_meta is not bound): the handle still opens', async () => {
  const { gateway } = legacySetup({ restart });
  const round = inputRequired(await serve(gateway, callRestart(1, { _meta: { progressToken: 'p1' } })).response());
  const key = round.keys[0] as string;
  const done = await serve(gateway, callRestart(2, { _meta: { progressToken: 'p2', traceparent: '00-x-y-01' }, inputResponses: { [key]: ACCEPT }, requestState: round.requestState })).response();
  assert.equal(textOf(done), JSON.stringify(ACCEPT));
  await gateway.close();
});

test('with route both, an operator who answers a parked question first settles it; the host\'s retry gets the final result', async () => {
  const up = fakeUpstreamFactory({ restart });
  const desk = new QuestionDesk({ store: new MemoryQuestionStore(), logger: silentLogger, operatorAvailable: true });
  const gateway = createGateway(config([spec('desk')]), {
    logger: silentLogger,
    openTransport: () => up.open(),
    questions: { desk, policy: new QuestionPolicy({ defaults: { route: 'both', timeoutMs: 60_000 } }) },
    requestState: { keys: keys() },
  });
  const round = inputRequired(await serve(gateway, callRestart(1)).response());
  const key = round.keys[0] as string;
  const [question] = await desk.list({ state: ['pending', 'delivered'] });
  assert.ok(question, 'the parked question is a desk question');
  assert.equal(question.audience, 'both');
  const operator = { action: 'accept' as const, content: { confirm: true, ticket: 'OP-1' } };
  assert.ok((await desk.answer(question.id, operator, tokenOperator('olivia'))).ok);
  await eventually(() => answersOf(caller(up)).length === 1, 'the operator\'s answer upstream');

  const done = await serve(gateway, callRestart(2, { inputResponses: { [key]: ACCEPT }, requestState: round.requestState })).response();
  assert.equal(resultOf(done).resultType, 'complete');
  assert.equal(textOf(done), JSON.stringify(operator));
  assert.equal(answersOf(caller(up)).length, 1, 'the upstream was answered once');
  await gateway.close();
});

test('progress of a resumed call reaches the retry under the retry\'s own progress token', async () => {
  const progressing: ToolHandler = async (call, server) => {
    const token = (call.params?._meta as JsonObject | undefined)?.progressToken;
    const answer = await server.ask('elicitation/create', RESTART);
    if (token !== undefined) await server.notify('notifications/progress', { progressToken: token as string, progress: 1, total: 1 });
    return { content: [{ type: 'text', text: JSON.stringify('result' in answer ? answer.result : answer) }] };
  };
  const { gateway } = legacySetup({ progressing });
  const call = (id: number, extra: JsonObject) => modern(id, 'tools/call', { name: 'progressing', arguments: {}, ...extra });
  const round = inputRequired(await serve(gateway, call(1, { _meta: { progressToken: 'first' } })).response());
  const retry = serve(gateway, call(2, { _meta: { progressToken: 'retry' }, inputResponses: { [round.keys[0] as string]: ACCEPT }, requestState: round.requestState }));
  await retry.response();
  const progress = retry.sink.notes.filter((n) => n.method === 'notifications/progress');
  assert.deepEqual(progress.map((n) => n.params?.progressToken), ['retry']);
  await gateway.close();
});

test('pair 4: a question the host did not declare, with nobody else to answer it, ends the call with -32021; the upstream call is cancelled', async () => {
  const sample: ToolHandler = async (_call, server) => {
    const answer = await server.ask('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }], maxTokens: 50 });
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  };
  const cfg = config([spec('desk')]);
  cfg.questions = { ...cfg.questions, route: 'host' };
  const up = fakeUpstreamFactory({ sample });
  const gateway = createGateway(cfg, { logger: silentLogger, openTransport: () => up.open(), requestState: { keys: keys() } });
  await gateway.ready;
  const response = await serve(gateway, modern(1, 'tools/call', { name: 'sample', arguments: {} }, { elicitation: { form: {} } })).response();
  const error = errorOf(response);
  assert.equal(error.code, -32021, JSON.stringify(error));
  assert.deepEqual((error.data as JsonObject).requiredCapabilities, { sampling: {} });
  const server = caller(up);
  const [call] = callsOf(server);
  assert.ok(call);
  await eventually(() => cancellationsOf(server).some((c) => c.requestId === call.id), 'the upstream call cancelled');
  await eventually(() => answersOf(server).length === 1, 'the sampling question answered (refused) upstream');
  await gateway.close();
});

// ---- the round deadline and cancellation ------------------------------------------------------------

test('a parked call not resumed before its deadline is cancelled upstream; its handle then no longer opens', async () => {
  const gate = deferred();
  // Keeps running whatever it is answered, so that only the gateway's cancellation can end it.
  const stubborn: ToolHandler = async (_call, server) => {
    await server.ask('elicitation/create', RESTART);
    await gate.promise;
    return { content: [{ type: 'text', text: 'too late' }] };
  };
  const { gateway, up, ring } = legacySetup({ stubborn }, { questionTimeoutMs: 150 });
  const call = (id: string, extra: JsonObject = {}) => modern(id, 'tools/call', { name: 'stubborn', arguments: {}, ...extra });
  const round = inputRequired(await serve(gateway, call('a')).response());
  const key = round.keys[0] as string;
  const server = caller(up);
  const upstreamId = callsOf(server)[0]?.id;
  await eventually(() => cancellationsOf(server).some((c) => c.requestId === upstreamId), 'notifications/cancelled upstream');
  // Its question was settled too: the upstream is not left waiting for an answer (it got cancel, or an error).
  await eventually(() => answersOf(server).length === 1, 'the question settled upstream');
  const settled = answersOf(server)[0];
  assert.ok(settled && ('error' in settled || ('result' in settled && settled.result.action === 'cancel')), JSON.stringify(settled));

  const late = await serve(gateway, call('b', { inputResponses: { [key]: ACCEPT }, requestState: round.requestState })).response();
  assertRejected(late, 'expired');
  // The same round with a lifetime that has not run out: genuine, but the call is not there any more.
  const extended = reseal(round.requestState, ring, (payload) => {
    payload.exp = Date.now() + 60_000;
  });
  assertRejected(await serve(gateway, call('c', { inputResponses: { [key]: ACCEPT }, requestState: extended })).response(), 'gone');
  gate.resolve();
  await gateway.close();
});

test('exchange.cancel() while the call is in flight sends notifications/cancelled upstream for that call', async () => {
  const gate = deferred();
  const slow: ToolHandler = async () => {
    await gate.promise;
    return { content: [{ type: 'text', text: 'slow' }] };
  };
  const { gateway, up } = legacySetup({ slow });
  const served = serve(gateway, modern('s', 'tools/call', { name: 'slow', arguments: {} }));
  await eventually(() => up.servers.some((s) => callsOf(s).length > 0), 'the upstream call');
  const server = caller(up);
  served.exchange.cancel('the host closed the request stream');
  const upstreamId = callsOf(server)[0]?.id;
  await eventually(() => cancellationsOf(server).some((c) => c.requestId === upstreamId), 'notifications/cancelled upstream');
  gate.resolve();
  await gateway.close();
});

test('exchange.cancel() after the call was parked does nothing: the handle still resumes it', async () => {
  const { gateway, up } = legacySetup({ restart });
  const first = serve(gateway, callRestart('p'));
  const round = inputRequired(await first.response());
  first.exchange.cancel('the host closed the request stream');
  const key = round.keys[0] as string;
  const done = await serve(gateway, callRestart('q', { inputResponses: { [key]: ACCEPT }, requestState: round.requestState })).response();
  assert.equal(textOf(done), JSON.stringify(ACCEPT));
  assert.deepEqual(cancellationsOf(caller(up)), [], 'nothing was cancelled upstream');
  assert.equal(first.sink.responses.length, 1, 'the parked request was answered once');
  await gateway.close();
});
