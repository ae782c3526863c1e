/**
 * @module Tests of 2026-07-28 ("modern") hosts through `createGateway(...).serveModern`: server/discover, plain requests,
 * removed methods, pair 4 (a legacy upstream's mid-call questions parked behind `sb1.` handles), every way a handle is
 * refused without touching anything, the round deadline, cancellation, pair 2 (a modern upstream's state wrapped), and
 * subscriptions/listen.
 */

import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { test } from 'node:test';

import { fromBase64url, toBase64url } from '../../bridge/base64url.js';
import type { HandleKeyRing } from '../../bridge/handle-keys.js';
import { deriveHandleKey, handleKeyRing } from '../../bridge/handle-keys.js';
import { QuestionDesk } from '../../questions/desk.js';
import type { UpstreamSpec } from '../../config/types.js';
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { parseRequestEnvelope } from '../../protocol/request-envelope.js';
import { MemoryQuestionStore } from '../../store/memory/memory-question-store.js';
import type { GatewayHandle, ModernExchange, ModernSink } from '../../ports/host-contracts.js';
import { createGateway } from '../../app/gateway.js';
import { silentLogger } from '../../core/log.js';
import { QuestionPolicy } from '../../questions/route-policy.js';
import type { ModernHandler } from '../../upstream/testing/fake-modern-upstream.js';
import { fakeModernFactory, textResult } from '../../upstream/testing/fake-modern-upstream.js';
import type { FakeUpstream, ToolHandler } from '../../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory } from '../../upstream/testing/fake-upstream.js';
import { config, spec } from '../../app/testing/gateway-doubles.js';

// ---- doubles and helpers ----------------------------------------------------------------------------

const WAIT_MS = 3000;
const CAPS: JsonObject = { elicitation: { form: {} } };
const TICKET = { type: 'object', properties: { confirm: { type: 'boolean' }, ticket: { type: 'string' } }, required: ['confirm', 'ticket'] };
const RESTART = { mode: 'form', message: 'Restart payments-api?', requestedSchema: TICKET };
const REGION = { mode: 'form', message: 'Which region?', requestedSchema: { type: 'object', properties: { region: { type: 'string', enum: ['eu', 'us'] } }, required: ['region'] } };
const ACCEPT = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } };

function keys(): HandleKeyRing {
  return handleKeyRing([deriveHandleKey(randomBytes(32))]);
}

/** A 2026-07-28 request: its params carry the envelope. */
function modern(id: string | number, method: string, params: JsonObject = {}, capabilities: JsonObject = CAPS): JsonRpcRequest {
  const meta = isObject(params._meta) ? params._meta : {};
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        ...meta,
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': capabilities,
        'io.modelcontextprotocol/clientInfo': { name: 'modern-test-host', version: '1' },
      },
    },
  };
}

/** Records what the gateway sends for one request. */
class Recorder implements ModernSink {
  readonly notes: JsonRpcNotification[] = [];
  readonly responses: JsonRpcResponse[] = [];
  #wake: (() => void)[] = [];

  notify(message: JsonRpcNotification): void {
    this.notes.push(message);
    this.#wake.splice(0).forEach((wake) => wake());
  }

  respond(message: JsonRpcResponse): void {
    this.responses.push(message);
    this.#wake.splice(0).forEach((wake) => wake());
  }

  async until<T>(find: () => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#wake.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  response(): Promise<JsonRpcResponse> {
    return this.until(() => this.responses[0], 'the response');
  }

  note(method: string, index = 0): Promise<JsonRpcNotification> {
    return this.until(() => this.notes.filter((n) => n.method === method)[index], method);
  }
}

interface Served {
  sink: Recorder;
  exchange: ModernExchange;
  response(): Promise<JsonRpcResponse>;
}

function serve(gateway: GatewayHandle, request: JsonRpcRequest, principal = 'alice'): Served {
  const parsed = parseRequestEnvelope(request.params);
  assert.ok(parsed.ok, 'the test request carries a valid envelope');
  const sink = new Recorder();
  const exchange = gateway.serveModern(request, { principal, envelope: parsed.envelope, transport: 'streamable-http' }, sink);
  return { sink, exchange, response: () => sink.response() };
}

function resultOf(response: JsonRpcResponse): JsonObject {
  assert.ok('result' in response, `expected a result, got ${JSON.stringify(response)}`);
  return response.result;
}

function errorOf(response: JsonRpcResponse): { code: number; message: string; data?: unknown } {
  assert.ok('error' in response, `expected an error, got ${JSON.stringify(response)}`);
  return response.error;
}

function textOf(response: JsonRpcResponse): string {
  const content = resultOf(response).content as { text?: string }[] | undefined;
  return content?.[0]?.text ?? '';
}

/** An input_required result: its keys, its questions and its handle. */
function inputRequired(response: JsonRpcResponse): { keys: string[]; inputRequests: Record<string, JsonObject>; requestState: string } {
  const result = resultOf(response);
  assert.equal(result.resultType, 'input_required', JSON.stringify(result));
  assert.ok(isObject(result.inputRequests));
  assert.equal(typeof result.requestState, 'string');
  return { keys: Object.keys(result.inputRequests), inputRequests: result.inputRequests as Record<string, JsonObject>, requestState: result.requestState as string };
}

function assertRejected(response: JsonRpcResponse, failure: string): void {
  const error = errorOf(response);
  assert.equal(error.code, -32602, JSON.stringify(error));
  assert.deepEqual(error.data, { reason: 'GW_ERR_REQUEST_STATE_REJECTED', failure });
}

/** Re-signs a handle after changing its payload (with the gateway's own key): an authentic handle with other claims. */
function reseal(handle: string, ring: HandleKeyRing, change: (payload: Record<string, unknown>) => void): string {
  const [prefix, payloadText] = handle.split('.');
  const bytes = fromBase64url(payloadText ?? '');
  assert.ok(bytes);
  const payload = JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
  change(payload);
  const signed = `${prefix}.${toBase64url(Buffer.from(JSON.stringify(payload), 'utf8'))}`;
  return `${signed}.${toBase64url(createHmac('sha256', ring.signing.secret).update(signed, 'utf8').digest())}`;
}

/** The payload of a handle (it is readable by design). */
function payloadOf(handle: string): Record<string, unknown> {
  const bytes = fromBase64url(handle.split('.')[1] ?? '');
  assert.ok(bytes);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
}

/** Replaces the character at `index` by another one of the base64url alphabet. */
function flipAt(text: string, index: number): string {
  const replacement = text[index] === 'A' ? 'B' : 'A';
  return `${text.slice(0, index)}${replacement}${text.slice(index + 1)}`;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A gateway in front of one legacy (2025-11-25) fake upstream named `desk`. */
function legacySetup(tools: Record<string, ToolHandler>, options: { questionTimeoutMs?: number; extra?: Partial<UpstreamSpec> } = {}) {
  const up = fakeUpstreamFactory(tools);
  const cfg = config([spec('desk', 'per-session', options.extra ?? {})]);
  if (options.questionTimeoutMs !== undefined) cfg.questions = { ...cfg.questions, timeoutMs: options.questionTimeoutMs };
  const ring = keys();
  const gateway = createGateway(cfg, { logger: silentLogger, openTransport: () => up.open(), requestState: { keys: ring } });
  return { up, gateway, ring };
}

/** The upstream connection that served tool calls (probes open connections of their own). */
function caller(up: ReturnType<typeof fakeUpstreamFactory>): FakeUpstream {
  const server = up.servers.find((s) => s.received.some((m) => 'method' in m && m.method === 'tools/call'));
  assert.ok(server, 'an upstream connection received a tools/call');
  return server;
}

function callsOf(server: FakeUpstream): JsonRpcRequest[] {
  return server.received.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m && m.method === 'tools/call');
}

/** Responses the upstream got to the requests it sent (its questions), by id. */
function answersOf(server: FakeUpstream, id?: string): JsonRpcMessage[] {
  return server.received.filter((m) => !('method' in m) && (id === undefined || m.id === id));
}

function cancellationsOf(server: FakeUpstream): JsonObject[] {
  return server.received.flatMap((m) => ('method' in m && m.method === 'notifications/cancelled' ? [m.params ?? {}] : []));
}

/** A tool that asks RESTART and reports what it was answered. */
const restart: ToolHandler = async (_call, server) => {
  const answer = await server.ask('elicitation/create', RESTART);
  return { content: [{ type: 'text', text: JSON.stringify('result' in answer ? answer.result : answer) }] };
};

/** A tool that asks RESTART and REGION at once. */
const both: ToolHandler = async (_call, server) => {
  const [first, second] = await Promise.all([server.ask('elicitation/create', RESTART), server.ask('elicitation/create', REGION)]);
  const results = [first, second].map((answer) => ('result' in answer ? answer.result : answer));
  return { content: [{ type: 'text', text: JSON.stringify(results) }] };
};

const callRestart = (id: string | number, extra: JsonObject = {}) => modern(id, 'tools/call', { name: 'restart', arguments: { service: 'payments-api' }, ...extra });

// ---- server/discover, lists, plain calls, removed methods -------------------------------------------

test('server/discover: every revision, the merged capabilities, complete, cache hints, serverInfo in _meta', async () => {
  const { gateway } = legacySetup({ restart });
  await gateway.ready;
  const { response } = serve(gateway, modern(1, 'server/discover'));
  const result = resultOf(await response());
  assert.deepEqual(result.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
  assert.ok(isObject(result.capabilities));
  assert.ok(isObject(result.capabilities.tools), 'the upstream\'s tools are offered');
  assert.equal(result.resultType, 'complete');
  assert.equal(result.ttlMs, 0);
  assert.equal(result.cacheScope, 'private');
  assert.ok(isObject(result._meta));
  const info = result._meta['io.modelcontextprotocol/serverInfo'];
  assert.ok(isObject(info) && typeof info.name === 'string' && typeof info.version === 'string', JSON.stringify(result._meta));
  await gateway.close();
});

test('tools/list and a plain tools/call: complete; cache hints on the list only', async () => {
  const { gateway, up } = legacySetup({ status: () => ({ content: [{ type: 'text', text: 'fine' }] }) });
  await gateway.ready;
  const list = resultOf(await serve(gateway, modern('l', 'tools/list')).response());
  assert.deepEqual(list.tools, [{ name: 'status', inputSchema: { type: 'object' } }]);
  assert.equal(list.resultType, 'complete');
  assert.equal(list.ttlMs, 0);
  assert.equal(list.cacheScope, 'private');
  const call = await serve(gateway, modern('c', 'tools/call', { name: 'status', arguments: {} })).response();
  assert.equal(call.id, 'c', 'answered under the host\'s own id');
  const result = resultOf(call);
  assert.equal(textOf(call), 'fine');
  assert.equal(result.resultType, 'complete');
  assert.equal(Object.hasOwn(result, 'ttlMs'), false, 'a tool result is not cacheable');
  assert.equal(Object.hasOwn(result, 'cacheScope'), false);
  // The legacy upstream never sees the envelope.
  const upstreamParams = callsOf(caller(up))[0]?.params ?? {};
  assert.doesNotMatch(JSON.stringify(upstreamParams), /io\.modelcontextprotocol\//);
  await gateway.close();
});

test('the methods 2026-07-28 removed are -32601', async () => {
  const { gateway } = legacySetup({ restart });
  await gateway.ready;
  const removed: [string, JsonObject][] = [
    ['initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }],
    ['ping', {}],
    ['logging/setLevel', { level: 'info' }],
    ['resources/subscribe', { uri: 'x://1' }],
  ];
  for (const [method, params] of removed) {
    const response = await serve(gateway, modern(method, method, params)).response();
    assert.equal(response.id, method);
    assert.equal(errorOf(response).code, -32601, method);
  }
  await gateway.close();
});

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

test('pair 4: an invalid answer in a retry with a handle that does not open touches nothing', async () => {
  const { gateway, up } = legacySetup({ restart });
  const round = inputRequired(await serve(gateway, callRestart(1)).response());
  const [key] = round.keys as [string];
  const [prefix, payload, mac] = round.requestState.split('.') as [string, string, string];
  const tampered = `${prefix}.${payload}.${flipAt(mac, 3)}`;
  const bad = await serve(gateway, callRestart(2, { inputResponses: { [key]: { action: 'accept', content: { confirm: 'yes' } } }, requestState: tampered })).response();
  assert.equal((errorOf(bad).data as JsonObject).failure, 'bad-mac', JSON.stringify(errorOf(bad)));
  await resumesAfterwards(gateway, up, key, round.requestState);
  await gateway.close();
});

// ---- rejected handles: -32602, and nothing touched --------------------------------------------------

/** Parks a restart call for `alice` and returns its key and handle. */
async function parked(gateway: GatewayHandle): Promise<{ key: string; handle: string }> {
  const round = inputRequired(await serve(gateway, callRestart('first')).response());
  return { key: round.keys[0] as string, handle: round.requestState };
}

/** Proves the parked call is intact: the genuine retry still resumes it and the upstream gets exactly that answer. */
async function resumesAfterwards(gateway: GatewayHandle, up: ReturnType<typeof fakeUpstreamFactory>, key: string, handle: string): Promise<void> {
  assert.equal(answersOf(caller(up)).length, 0, 'the upstream got no answer from the refused retry');
  const done = await serve(gateway, callRestart('genuine', { inputResponses: { [key]: ACCEPT }, requestState: handle })).response();
  assert.equal(textOf(done), JSON.stringify(ACCEPT));
  assert.equal(answersOf(caller(up)).length, 1);
}

test('a tampered handle (a character of the payload or the MAC changed) is bad-mac; the parked call still resumes', async () => {
  const { gateway, up } = legacySetup({ restart });
  const { key, handle } = await parked(gateway);
  const [prefix, payload, mac] = handle.split('.') as [string, string, string];
  const inPayload = `${prefix}.${flipAt(payload, Math.floor(payload.length / 2))}.${mac}`;
  const inMac = `${prefix}.${payload}.${flipAt(mac, 10)}`;
  for (const tampered of [inPayload, inMac]) {
    const refused = await serve(gateway, callRestart('tampered', { inputResponses: { [key]: { action: 'decline' } }, requestState: tampered })).response();
    assertRejected(refused, 'bad-mac');
  }
  const garbage = await serve(gateway, callRestart('garbage', { inputResponses: { [key]: { action: 'decline' } }, requestState: 'sb1.not-a-handle' })).response();
  assertRejected(garbage, 'malformed');
  await resumesAfterwards(gateway, up, key, handle);
  await gateway.close();
});

test('an expired handle (authentic, same round id) is expired and leaves the ledger untouched; the genuine one still works', async () => {
  const { gateway, up, ring } = legacySetup({ restart });
  const { key, handle } = await parked(gateway);
  const expired = reseal(handle, ring, (payload) => {
    payload.iat = (payload.iat as number) - 120_000;
    payload.exp = (payload.iat as number) + 1000;
  });
  assert.equal(payloadOf(expired).id, payloadOf(handle).id, 'the same round');
  const refused = await serve(gateway, callRestart('late', { inputResponses: { [key]: { action: 'decline' } }, requestState: expired })).response();
  assertRejected(refused, 'expired');
  await resumesAfterwards(gateway, up, key, handle);
  await gateway.close();
});

test('a handle used once is replayed the second time; the next round\'s handle still works', async () => {
  const twice: ToolHandler = async (_call, server) => {
    const one = await server.ask('elicitation/create', RESTART);
    const two = await server.ask('elicitation/create', REGION);
    return { content: [{ type: 'text', text: JSON.stringify([one, two].map((a) => ('result' in a ? a.result : a))) }] };
  };
  const { gateway, up } = legacySetup({ twice });
  const call = (id: string, extra: JsonObject = {}) => modern(id, 'tools/call', { name: 'twice', arguments: {}, ...extra });
  const first = inputRequired(await serve(gateway, call('a')).response());
  const firstKey = first.keys[0] as string;
  const second = inputRequired(await serve(gateway, call('b', { inputResponses: { [firstKey]: ACCEPT }, requestState: first.requestState })).response());
  const secondKey = second.keys[0] as string;
  assert.notEqual(second.requestState, first.requestState);
  assert.equal(answersOf(caller(up)).length, 1);

  const replay = await serve(gateway, call('c', { inputResponses: { [firstKey]: { action: 'decline' } }, requestState: first.requestState })).response();
  assertRejected(replay, 'replayed');
  assert.equal(answersOf(caller(up)).length, 1, 'the replay reached nothing');

  const done = await serve(gateway, call('d', { inputResponses: { [secondKey]: { action: 'accept', content: { region: 'eu' } } }, requestState: second.requestState })).response();
  assert.equal(textOf(done), JSON.stringify([ACCEPT, { action: 'accept', content: { region: 'eu' } }]));
  const again = await serve(gateway, call('e', { inputResponses: { [secondKey]: { action: 'decline' } }, requestState: second.requestState })).response();
  assertRejected(again, 'replayed');
  await gateway.close();
});

test('two retries racing with the same handle: one resumes the call, the other is replayed; the upstream gets one answer', async () => {
  const { gateway, up } = legacySetup({ restart });
  const { key, handle } = await parked(gateway);
  const one = serve(gateway, callRestart('one', { inputResponses: { [key]: ACCEPT }, requestState: handle }));
  const two = serve(gateway, callRestart('two', { inputResponses: { [key]: { action: 'decline' } }, requestState: handle }));
  const responses = await Promise.all([one.response(), two.response()]);
  const won = responses.filter((r) => 'result' in r);
  const lost = responses.filter((r) => 'error' in r);
  assert.equal(won.length, 1, JSON.stringify(responses));
  assert.equal(lost.length, 1);
  assertRejected(lost[0] as JsonRpcResponse, 'replayed');
  assert.equal(answersOf(caller(up)).length, 1);
  await gateway.close();
});

test('a handle presented by another principal is wrong-principal; the owner\'s retry still works', async () => {
  const { gateway, up } = legacySetup({ restart });
  const { key, handle } = await parked(gateway);
  const stolen = serve(gateway, callRestart('mallory', { inputResponses: { [key]: { action: 'accept', content: { confirm: true, ticket: 'EVIL' } } }, requestState: handle }), 'mallory');
  assertRejected(await stolen.response(), 'wrong-principal');
  await resumesAfterwards(gateway, up, key, handle);
  await gateway.close();
});

test('a handle attached to other params is wrong-params; the original retry still works', async () => {
  const { gateway, up } = legacySetup({ restart });
  const { key, handle } = await parked(gateway);
  const other = modern('other', 'tools/call', { name: 'restart', arguments: { service: 'billing-api' }, inputResponses: { [key]: ACCEPT }, requestState: handle });
  assertRejected(await serve(gateway, other).response(), 'wrong-params');
  await resumesAfterwards(gateway, up, key, handle);
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

test('log lines reach a host only when its envelope asks for them, each level on an upstream session set to it', async () => {
  const logs: ToolHandler = async (_call, server) => {
    await server.notify('notifications/message', { level: 'warning', data: 'disk almost full' });
    return { content: [{ type: 'text', text: 'ok' }] };
  };
  const { gateway, up } = legacySetup({ logs });
  await gateway.ready;
  const call = (id: number, level?: string) => {
    const request = modern(id, 'tools/call', { name: 'logs', arguments: {} });
    if (level !== undefined) (request.params?._meta as JsonObject)['io.modelcontextprotocol/logLevel'] = level;
    return serve(gateway, request);
  };
  const quiet = call(1);
  assert.equal(textOf(await quiet.response()), 'ok');
  assert.deepEqual(quiet.sink.notes, [], 'no logLevel: no log lines');
  const chatty = call(2, 'info');
  assert.equal(textOf(await chatty.response()), 'ok');
  assert.deepEqual(chatty.sink.notes, [{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', data: 'disk almost full' } }]);
  const levels = up.servers.flatMap((s) => s.received.flatMap((m) => ('method' in m && m.method === 'logging/setLevel' ? [m.params?.level] : [])));
  assert.deepEqual(levels, ['info'], 'the upstream session of the info host was set to info; the quiet one to nothing');
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

test('two hosts may use the same JSON-RPC id at once: each gets its own answer', async () => {
  const gate = deferred();
  const named: ToolHandler = async (call) => {
    await gate.promise;
    return { content: [{ type: 'text', text: `hello ${String((call.params?.arguments as JsonObject).who)}` }] };
  };
  const { gateway, up } = legacySetup({ named });
  const alice = serve(gateway, modern(7, 'tools/call', { name: 'named', arguments: { who: 'alice' } }), 'alice');
  const again = serve(gateway, modern(7, 'tools/call', { name: 'named', arguments: { who: 'alice-2' } }), 'alice');
  const bob = serve(gateway, modern(7, 'tools/call', { name: 'named', arguments: { who: 'bob' } }), 'bob');
  await eventually(() => up.servers.reduce((n, s) => n + callsOf(s).length, 0) === 3, 'three upstream calls');
  gate.resolve();
  assert.equal(textOf(await alice.response()), 'hello alice');
  assert.equal(textOf(await again.response()), 'hello alice-2');
  assert.equal(textOf(await bob.response()), 'hello bob');
  for (const s of [alice, again, bob]) assert.equal((await s.response()).id, 7);
  await gateway.close();
});

test('with route both, an operator who answers a parked question first settles it; the host\'s retry gets the final result', async () => {
  const up = fakeUpstreamFactory({ restart });
  const broker = new QuestionDesk({ store: new MemoryQuestionStore(), logger: silentLogger, operatorAvailable: true });
  const gateway = createGateway(config([spec('desk')]), {
    logger: silentLogger,
    openTransport: () => up.open(),
    questions: { broker, policy: new QuestionPolicy({ defaults: { route: 'both', timeoutMs: 60_000 } }) },
    requestState: { keys: keys() },
  });
  const round = inputRequired(await serve(gateway, callRestart(1)).response());
  const key = round.keys[0] as string;
  const [question] = await broker.list({ state: ['pending', 'delivered'] });
  assert.ok(question, 'the parked question is a broker question');
  assert.equal(question.audience, 'both');
  const operator = { action: 'accept' as const, content: { confirm: true, ticket: 'OP-1' } };
  assert.ok((await broker.answer(question.id, operator, 'olivia')).ok);
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

test('with http.sessionIdleTimeout 0 (never), an idle stand-in keeps its upstream session', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { gateway, up } = legacySetup({ status: () => ({ content: [{ type: 'text', text: 'fine' }] }) });
  await gateway.ready;
  const probes = up.servers.length;
  const status = (id: number) => modern(id, 'tools/call', { name: 'status', arguments: {} });
  assert.equal(textOf(await serve(gateway, status(1)).response()), 'fine');
  t.mock.timers.tick(5000);
  assert.equal(textOf(await serve(gateway, status(2)).response()), 'fine');
  assert.equal(up.servers.length - probes, 1, 'one upstream session served both calls');
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

test('pair 2: each relayed input request is a broker question, delivered via input_required and answered by the host\'s retry', async () => {
  const store = new MemoryQuestionStore();
  const broker = new QuestionDesk({ store, logger: silentLogger, operatorAvailable: false });
  const cfg = config([spec('desk')]);
  const up = fakeModernFactory({ handlers: { 'tool:restart': modernAsks } });
  const gateway = createGateway(cfg, {
    logger: silentLogger,
    openTransport: () => up.open(),
    requestState: { keys: keys() },
    questions: { broker, policy: QuestionPolicy.fromConfig(cfg) },
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
  await broker.close();
});

test('at the stand-in cap an idle stand-in makes room; when all are busy a new context is refused with GW_ERR_HOST_LIMIT', async () => {
  const up = fakeUpstreamFactory({ restart });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open(), requestState: { keys: keys() }, maxStandIns: 2 });
  await gateway.ready;
  // Two principals with a parked call each: both stand-ins are busy.
  const alice = inputRequired(await serve(gateway, modern(1, 'tools/call', { name: 'restart', arguments: {} }), 'alice').response());
  inputRequired(await serve(gateway, modern(2, 'tools/call', { name: 'restart', arguments: {} }), 'bob').response());
  const refused = errorOf(await serve(gateway, modern(3, 'tools/list'), 'carol').response());
  assert.equal(refused.code, -32603);
  assert.deepEqual(refused.data, { reason: 'GW_ERR_HOST_LIMIT' });

  // Alice's call completes: her stand-in is idle, so Carol's context takes its place.
  const [key] = alice.keys;
  const done = await serve(gateway, modern(4, 'tools/call', { name: 'restart', arguments: {}, inputResponses: { [key as string]: ACCEPT }, requestState: alice.requestState }), 'alice').response();
  assert.equal(resultOf(done).resultType, 'complete');
  const served = await serve(gateway, modern(5, 'tools/list'), 'carol').response();
  assert.ok(Array.isArray(resultOf(served).tools));
  await gateway.close();
});
