/** @module Tests of pair 2 for 2026-07-28 hosts (a 2026-07-28 upstream's input_required relayed with its state wrapped) and of subscriptions/listen streams. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QuestionDesk } from '../questions/desk.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import { silentLogger } from '../core/log.js';
import { QuestionPolicy } from '../questions/route-policy.js';
import type { ModernHandler } from '../upstream/testing/fake-modern-upstream.js';
import { fakeModernFactory, textResult } from '../upstream/testing/fake-modern-upstream.js';
import type { FakeUpstream, ToolHandler } from '../upstream/testing/fake-upstream.js';
import { config, spec } from './testing/gateway-doubles.js';
import { RESTART, ACCEPT, keys, modern, serve, resultOf, errorOf, textOf, inputRequired, assertRejected, payloadOf, eventually, legacySetup, restart, callRestart, createGateway } from './testing/modern-doubles.js';

// ---- pair 2: a modern upstream's input_required, its state wrapped ----------------------------------

const APPROVAL = { method: 'elicitation/create', params: RESTART };
const UPSTREAM_STATE = 'v1.opaque+/=\u00e9 "quoted"';

/** A modern tool that asks APPROVAL with UPSTREAM_STATE until answered, then reports what it got. */
const modernAsks: ModernHandler = (request) => {
  const responses = request.params?.inputResponses;
  if (!isObject(responses)) return { resultType: 'input_required', inputRequests: { approval: APPROVAL }, requestState: UPSTREAM_STATE };
  return textResult(JSON.stringify(responses));
};

test('pair 2: the upstream\'s input_required is relayed with its keys, the state wrapped; the retry gives the upstream its own state back', async () => {
  const up = fakeModernFactory({ handlers: { 'tool:restart': modernAsks } });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open(), requestState: { keys: keys() } });
  await gateway.ready;
  const round = inputRequired(await serve(gateway, callRestart(1)).response());
  assert.deepEqual(round.keys, ['approval']);
  assert.deepEqual(round.inputRequests.approval, APPROVAL);
  assert.match(round.requestState, /^sb1\./);
  assert.notEqual(round.requestState, UPSTREAM_STATE);
  assert.equal(payloadOf(round.requestState).k, 'wrapped');

  const foreign = await serve(gateway, callRestart(2, { inputResponses: { approval: ACCEPT }, requestState: round.requestState }), 'mallory').response();
  assertRejected(foreign, 'wrong-principal');
  const server = up.servers.find((s) => s.requests('tools/call').length > 0);
  assert.ok(server);
  assert.equal(server.requests('tools/call').length, 1, 'the foreign retry never reached the upstream');

  const done = await serve(gateway, callRestart(3, { inputResponses: { approval: ACCEPT }, requestState: round.requestState })).response();
  assert.equal(resultOf(done).resultType, 'complete');
  assert.equal(textOf(done), JSON.stringify({ approval: ACCEPT }));
  const [firstCall, retry] = server.requests('tools/call');
  assert.ok(firstCall && retry);
  assert.equal(retry.params?.requestState, UPSTREAM_STATE, 'the upstream\'s own state, byte for byte');
  assert.deepEqual(retry.params?.inputResponses, { approval: ACCEPT });
  assert.deepEqual(retry.params?.arguments, { service: 'payments-api' });
  await gateway.close();
});

test('pair 2: an upstream that gives no requestState gets none back; the retry carries only the answers', async () => {
  const stateless: ModernHandler = (request) => {
    const responses = request.params?.inputResponses;
    if (!isObject(responses)) return { resultType: 'input_required', inputRequests: { approval: APPROVAL } };
    return textResult(JSON.stringify(responses));
  };
  const up = fakeModernFactory({ handlers: { 'tool:restart': stateless } });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open(), requestState: { keys: keys() } });
  await gateway.ready;
  const first = resultOf(await serve(gateway, callRestart(1)).response());
  assert.equal(first.resultType, 'input_required');
  assert.deepEqual(Object.keys(first.inputRequests as JsonObject), ['approval']);
  assert.equal(Object.hasOwn(first, 'requestState'), false);
  const done = await serve(gateway, callRestart(2, { inputResponses: { approval: ACCEPT } })).response();
  assert.equal(textOf(done), JSON.stringify({ approval: ACCEPT }));
  const retry = up.servers.find((s) => s.requests('tools/call').length > 0)?.requests('tools/call')[1];
  assert.ok(retry);
  assert.equal(Object.hasOwn(retry.params ?? {}, 'requestState'), false);
  await gateway.close();
});

test('pair 2: an answer that breaks the relayed schema is -32602 naming inputResponses.<key>; the upstream is not called', async () => {
  const up = fakeModernFactory({ handlers: { 'tool:restart': modernAsks } });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open(), requestState: { keys: keys() } });
  await gateway.ready;
  const round = inputRequired(await serve(gateway, callRestart(1)).response());
  const bad = await serve(gateway, callRestart(2, { inputResponses: { approval: { action: 'accept', content: { confirm: 'yes' } } }, requestState: round.requestState })).response();
  const error = errorOf(bad);
  assert.equal(error.code, -32602);
  assert.deepEqual(error.data, { field: 'inputResponses.approval' });
  const server = up.servers.find((s) => s.requests('tools/call').length > 0);
  assert.equal(server?.requests('tools/call').length, 1);
  const done = await serve(gateway, callRestart(3, { inputResponses: { approval: ACCEPT }, requestState: round.requestState })).response();
  assert.equal(textOf(done), JSON.stringify({ approval: ACCEPT }));
  await gateway.close();
});

test('pair 2: each relayed input request is a desk question, delivered via input_required and answered by the host\'s retry', async () => {
  const store = new MemoryQuestionStore();
  const desk = new QuestionDesk({ store, logger: silentLogger, operatorAvailable: false });
  const cfg = config([spec('desk')]);
  const up = fakeModernFactory({ handlers: { 'tool:restart': modernAsks } });
  const gateway = createGateway(cfg, {
    logger: silentLogger,
    openTransport: () => up.open(),
    requestState: { keys: keys() },
    questions: { desk, policy: QuestionPolicy.fromConfig(cfg) },
  });
  await gateway.ready;
  const round = inputRequired(await serve(gateway, callRestart(1)).response());
  const [open] = await store.list({});
  assert.ok(open, 'the input request was recorded');
  assert.equal(open.state, 'delivered');
  assert.equal(open.origin.hostRevision, '2026-07-28');
  const audit = await store.auditTrail(open.id);
  assert.ok(audit.some((entry) => entry.action === 'delivered' && isObject(entry.detail) && entry.detail.via === 'input_required'), JSON.stringify(audit));

  const done = await serve(gateway, callRestart(2, { inputResponses: { approval: ACCEPT }, requestState: round.requestState })).response();
  assert.equal(resultOf(done).resultType, 'complete');
  const answered = await store.get(open.id);
  assert.equal(answered?.state, 'answered');
  assert.equal(answered?.answeredBy?.kind, 'host');
  await gateway.close();
  await desk.close();
});

// ---- subscriptions/listen ---------------------------------------------------------------------------

test('subscriptions/listen: acknowledged first, list changes tagged with the subscription id, nothing after cancel', async () => {
  const { gateway, up } = legacySetup({ restart });
  await gateway.ready;
  const probes = up.servers.length;
  const listen = serve(gateway, modern('listen-1', 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
  const ack = await listen.sink.until(() => listen.sink.notes[0], 'the acknowledgement');
  assert.equal(ack.method, 'notifications/subscriptions/acknowledged');
  assert.deepEqual(ack.params?.notifications, { toolsListChanged: true });
  assert.deepEqual(ack.params?._meta, { 'io.modelcontextprotocol/subscriptionId': 'listen-1' });

  // The listen opened the stand-in's upstream session (it lists tools on it).
  const listed = () => up.servers.slice(probes).find((s) => s.received.some((m) => 'method' in m && m.method === 'tools/list'));
  await eventually(() => listed() !== undefined, 'the upstream session');
  const server = listed();
  assert.ok(server);
  await server.notify('notifications/tools/list_changed');
  const changed = await listen.sink.note('notifications/tools/list_changed');
  assert.deepEqual(changed.params?._meta, { 'io.modelcontextprotocol/subscriptionId': 'listen-1' });

  listen.exchange.cancel('the host closed the listen stream');
  const second = serve(gateway, modern('listen-2', 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
  await second.sink.note('notifications/subscriptions/acknowledged');
  await server.notify('notifications/tools/list_changed');
  const toSecond = await second.sink.note('notifications/tools/list_changed');
  assert.deepEqual(toSecond.params?._meta, { 'io.modelcontextprotocol/subscriptionId': 'listen-2' });
  assert.equal(listen.sink.notes.filter((n) => n.method === 'notifications/tools/list_changed').length, 1, 'the cancelled listen got nothing more');
  assert.equal(listen.sink.responses.length, 0);
  await gateway.close();
});

test('subscriptions/listen: what the filter did not ask for is not sent; closing the gateway ends the stream with a result', async () => {
  const chatty: ToolHandler = async (call, server) => {
    const token = (call.params?._meta as JsonObject | undefined)?.progressToken;
    if (token !== undefined) await server.notify('notifications/progress', { progressToken: token as string, progress: 1 });
    return { content: [{ type: 'text', text: 'done' }] };
  };
  const { gateway, up } = legacySetup({ chatty });
  await gateway.ready;
  const probes = up.servers.length;
  const listen = serve(gateway, modern(42, 'subscriptions/listen', { notifications: { toolsListChanged: true, promptsListChanged: false } }));
  const ack = await listen.sink.note('notifications/subscriptions/acknowledged');
  assert.deepEqual(ack.params?.notifications, { toolsListChanged: true }, 'only what was asked for and can be delivered');
  const listed = () => up.servers.slice(probes).find((s) => s.received.some((m) => 'method' in m && m.method === 'tools/list'));
  await eventually(() => listed() !== undefined, 'the upstream session');
  const server = listed() as FakeUpstream;
  await server.notify('notifications/prompts/list_changed');
  await server.notify('notifications/resources/list_changed');
  await server.notify('notifications/tools/list_changed');
  await listen.sink.note('notifications/tools/list_changed');
  assert.deepEqual(listen.sink.notes.map((n) => n.method), ['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
  // Progress of a call of the same stand-in goes to that call, never to the listen stream.
  const busy = serve(gateway, modern(43, 'tools/call', { name: 'chatty', arguments: {}, _meta: { progressToken: 'tok' } }));
  assert.equal(textOf(await busy.response()), 'done');
  assert.deepEqual(busy.sink.notes.map((n) => n.params?.progressToken), ['tok']);
  assert.equal(listen.sink.notes.length, 2);

  await gateway.close();
  const end = await listen.response();
  assert.equal(end.id, 42);
  assert.deepEqual(resultOf(end), { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 42 } });
});
