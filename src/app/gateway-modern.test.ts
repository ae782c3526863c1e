/**
 * @module Tests of 2026-07-28 upstreams behind legacy hosts: the envelope built from the host, results stripped of
 * the 2026-only fields, and pair 3 of the era bridge (the gateway asks each input request like any question and retries).
 */

import { tokenOperator } from '../access/operator-principal.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QuestionDesk } from '../questions/desk.js';
import type { UpstreamSpec } from '../config/types.js';
import type { JsonObject, JsonRpcMessage, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import type { Transport } from '../upstream/transport/transport.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import { QuestionPolicy } from '../questions/route-policy.js';
import type { FakeModernOptions, ModernHandler } from '../upstream/testing/fake-modern-upstream.js';
import { complete, fakeModernFactory, ModernRpcError, textResult } from '../upstream/testing/fake-modern-upstream.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import type { Host } from './testing/gateway-doubles.js';
import { config, connectHost, openQuestion, spec } from './testing/gateway-doubles.js';

const APPROVAL = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Restart payments-api?',
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' }, ticket: { type: 'string' } }, required: ['confirm', 'ticket'] },
  },
};
const SUMMARY = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise INC-1' } }], maxTokens: 50 } };

/** A tool that asks `inputRequests` until it gets answers, then reports what it got. */
function asks(inputRequests: JsonObject, requestState: string | null = 'state-1'): ModernHandler {
  return (request) => {
    const responses = request.params?.inputResponses;
    if (!isObject(responses)) return { resultType: 'input_required', inputRequests, ...(requestState === null ? {} : { requestState }) };
    return textResult(JSON.stringify(responses));
  };
}

function setup(options: FakeModernOptions, extra: Partial<UpstreamSpec> = {}, questions?: { desk: QuestionDesk; policy: QuestionPolicy }) {
  const up = fakeModernFactory(options);
  const gateway = createGateway(config([spec('desk', 'per-session', extra)]), { logger: silentLogger, openTransport: () => up.open(), ...(questions ? { questions } : {}) });
  return { up, gateway };
}

/** The upstream (per-session: the host's own) that served the calls. */
function served(up: ReturnType<typeof fakeModernFactory>) {
  const server = up.servers.at(-1);
  assert.ok(server, 'an upstream was opened');
  return server;
}

function textOf(response: JsonRpcMessage): string {
  assert.ok('result' in response, JSON.stringify(response));
  return ((response.result.content as { text: string }[] | undefined) ?? [])[0]?.text ?? '';
}

/** Everything the host was sent, as one string: for checking what never reaches it. */
function everythingSent(host: Host): string {
  return JSON.stringify(host.sent.map((s) => s.message));
}

test('requests carry the envelope built from the host; results reach it without resultType and cache hints', async () => {
  const { up, gateway } = setup({ handlers: { 'tool:status': () => textResult('fine') } });
  await gateway.ready;
  assert.equal(gateway.health().upstreams[0]?.era, 'modern');
  assert.equal(gateway.health().upstreams[0]?.protocolVersion, '2026-07-28');
  const host = await connectHost(gateway, { elicitation: {}, sampling: {}, roots: { listChanged: true }, experimental: { x: {} } }, '2025-06-18');
  assert.ok('result' in (await host.request('logging/setLevel', { level: 'warning' })));
  const list = await host.request('tools/list');
  assert.ok('result' in list);
  assert.deepEqual(list.result, { tools: [{ name: 'status', inputSchema: { type: 'object' } }] });
  const call = await host.request('tools/call', { name: 'status', arguments: {}, _meta: { traceparent: '00-t-s-01' } });
  assert.ok('result' in call);
  assert.deepEqual(call.result, { content: [{ type: 'text', text: 'fine' }], isError: false });

  const server = served(up);
  const listSession = up.servers.at(-2);
  assert.deepEqual(listSession?.received.flatMap((m) => ('method' in m ? [m.method] : [])), ['server/discover', 'tools/list'], 'the list session: no initialize');
  assert.deepEqual(server.received.flatMap((m) => ('method' in m ? [m.method] : [])), ['server/discover', 'tools/call'], "the host's own: no initialize, no logging/setLevel");
  assert.deepEqual(server.requests('tools/call')[0]?.params, {
    name: 'status',
    arguments: {},
    _meta: {
      traceparent: '00-t-s-01',
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {}, roots: {} },
      'io.modelcontextprotocol/clientInfo': { name: 'test-host', version: '1' },
      'io.modelcontextprotocol/logLevel': 'warning',
    },
  });
  await gateway.close();
});

test('a list is cached for its ttlMs: 0 asks again each time, 60 s does not', async () => {
  for (const [ttlMs, expected] of [[0, 2], [60_000, 1]] as const) {
    const { up, gateway } = setup({ handlers: { 'tools/list': () => complete({ tools: [{ name: 'a', inputSchema: { type: 'object' } }], ttlMs, cacheScope: 'public' }) } });
    const host = await connectHost(gateway);
    await host.request('tools/list');
    await host.request('tools/list');
    assert.equal(served(up).requests('tools/list').length, expected, `ttlMs ${ttlMs}`);
    await gateway.close();
  }
});

test('an unknown resultType is an error, and so is input_required where it may not be', async () => {
  const { gateway } = setup({
    handlers: {
      'tool:later': () => ({ resultType: 'task', task: { taskId: 't1' } }),
      'completion/complete': () => ({ resultType: 'input_required', inputRequests: { a: APPROVAL } }),
    },
  });
  const host = await connectHost(gateway, { elicitation: {} });
  const task = await host.request('tools/call', { name: 'later', arguments: {} });
  assert.ok('error' in task, JSON.stringify(task));
  assert.equal(task.error.code, -32603);
  assert.deepEqual(task.error.data, { reason: 'GW_ERR_UPSTREAM_INVALID_RESULT' });
  assert.match(task.error.message, /unknown resultType "task"/);
  const completion = await host.request('completion/complete', { ref: { type: 'ref/resource', uri: 'x://1' }, argument: { name: 'a', value: '' } });
  assert.ok('error' in completion, JSON.stringify(completion));
  assert.match(completion.error.message, /completion\/complete may not be answered with input_required/);
  await gateway.close();
});

test('pair 3: the host is asked on its call\'s stream; the retry has a new id, the same params, the answers and the exact state', async () => {
  const { up, gateway } = setup({ handlers: { 'tool:restart': asks({ approval: APPROVAL }, 'v1.opaque+/=\u00e9') } });
  const host = await connectHost(gateway, { elicitation: { form: {} } });
  const call = host.request('tools/call', { name: 'restart', arguments: { service: 'payments-api' } }, 'call-7');
  const question = await host.question('elicitation/create');
  assert.equal(question.related, 'call-7', 'on the stream of the call');
  const asked = question.message as JsonRpcRequest;
  assert.match(String(asked.id), /^sb-/);
  assert.deepEqual(asked.params, APPROVAL.params);
  const answer = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } };
  host.session.receive({ jsonrpc: '2.0', id: asked.id, result: answer });
  const done = await call;
  assert.equal(textOf(done), JSON.stringify({ approval: answer }));
  assert.ok('result' in done && !('resultType' in done.result));

  const [first, retry] = served(up).requests('tools/call');
  assert.ok(first && retry);
  assert.notEqual(retry.id, first.id, 'a new JSON-RPC id');
  assert.deepEqual(retry.params, { ...first.params, inputResponses: { approval: answer }, requestState: 'v1.opaque+/=\u00e9' });
  assert.doesNotMatch(everythingSent(host), /resultType|inputRequests|requestState|inputResponses/);
  await gateway.close();
});

test('pair 3: a decline goes upstream as given and the upstream decides; no state given, none sent back', async () => {
  const { up, gateway } = setup({ handlers: { 'tool:restart': asks({ approval: APPROVAL }, null) } });
  const host = await connectHost(gateway, { elicitation: {} }, '2025-06-18');
  const call = host.request('tools/call', { name: 'restart', arguments: {} });
  const asked = (await host.question('elicitation/create')).message as JsonRpcRequest;
  host.session.receive({ jsonrpc: '2.0', id: asked.id, result: { action: 'decline' } });
  assert.equal(textOf(await call), JSON.stringify({ approval: { action: 'decline' } }));
  const retry = served(up).requests('tools/call')[1];
  assert.equal(Object.hasOwn(retry?.params ?? {}, 'requestState'), false);
  await gateway.close();
});

test('pair 3: every key of a round is asked together, and one retry carries all the answers', async () => {
  const { up, gateway } = setup({ handlers: { 'tool:both': asks({ approval: APPROVAL, summary: SUMMARY }) } });
  const host = await connectHost(gateway, { elicitation: {}, sampling: {} });
  const call = host.request('tools/call', { name: 'both', arguments: {} }, 'c');
  const elicit = (await host.question('elicitation/create')).message as JsonRpcRequest;
  const sample = (await host.question('sampling/createMessage')).message as JsonRpcRequest;
  const reply = { role: 'assistant', content: { type: 'text', text: 'Fine.' }, model: 'm', stopReason: 'endTurn' };
  host.session.receive({ jsonrpc: '2.0', id: sample.id, result: reply });
  host.session.receive({ jsonrpc: '2.0', id: elicit.id, result: { action: 'cancel' } });
  assert.equal(textOf(await call), JSON.stringify({ summary: reply, approval: { action: 'cancel' } }));
  assert.equal(served(up).requests('tools/call').length, 2, 'one retry for the round');
  await gateway.close();
});

test('pair 3: a host error ends a tool call with isError naming it; nothing is retried', async () => {
  const { up, gateway } = setup({ handlers: { 'tool:summarize': asks({ summary: SUMMARY }) } });
  const host = await connectHost(gateway, { sampling: {} });
  const call = host.request('tools/call', { name: 'summarize', arguments: {} });
  const asked = (await host.question('sampling/createMessage')).message as JsonRpcRequest;
  host.session.receive({ jsonrpc: '2.0', id: asked.id, error: { code: -1, message: 'User rejected sampling' } });
  const done = await call;
  assert.ok('result' in done);
  assert.equal(done.result.isError, true);
  assert.equal(textOf(done), "The call could not be completed: upstream 'desk' its sampling request 'summary' was answered with an error: User rejected sampling (-1)");
  assert.equal(served(up).requests('tools/call').length, 1);
  await gateway.close();
});

test('pair 3: a prompt past the round cap fails with GW_ERR_INPUT_REQUIRED_FAILED; the cap is the upstream\'s', async () => {
  const again: ModernHandler = () => ({ resultType: 'input_required', inputRequests: { approval: APPROVAL }, requestState: 'again' });
  const prompts: ModernHandler = () => complete({ prompts: [{ name: 'triage' }], ttlMs: 0, cacheScope: 'private' });
  const { up, gateway } = setup({ handlers: { 'prompts/list': prompts, 'prompts/get': again } }, { inputRequired: { maxRounds: 2, deadlineMs: 5000 } });
  const host = await connectHost(gateway, { elicitation: {} });
  const got = host.request('prompts/get', { name: 'triage' });
  const answered = new Set<string>();
  for (let round = 0; round < 2; round += 1) {
    const asked = await host.waitFor((s) => 'method' in s.message && s.message.method === 'elicitation/create' && !answered.has(String((s.message as JsonRpcRequest).id)));
    const id = (asked.message as JsonRpcRequest).id;
    answered.add(String(id));
    host.session.receive({ jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: true, ticket: `T-${round}` } } });
  }
  const response = await got;
  assert.ok('error' in response, JSON.stringify(response));
  assert.deepEqual(response.error.data, { reason: 'GW_ERR_INPUT_REQUIRED_FAILED' });
  assert.equal(response.error.message, "The request could not be completed: upstream 'desk' it asked for input more than 2 times (inputRequired.maxRounds)");
  assert.equal(served(up).requests('prompts/get').length, 3);
  await gateway.close();
});
test('pair 3: inputRequired.deadline counts the upstream\'s time, not the host\'s: a slow answer is fine, a slow upstream is not', async () => {
  const tool: ModernHandler = async (request) => {
    const responses = request.params?.inputResponses;
    if (!isObject(responses)) return { resultType: 'input_required', inputRequests: { approval: APPROVAL } };
    const ticket = (isObject(responses.approval) && isObject(responses.approval.content) ? responses.approval.content.ticket : '') as string;
    if (ticket === 'slow') await new Promise((r) => setTimeout(r, 400));
    return textResult(`done ${ticket}`);
  };
  const { gateway } = setup({ handlers: { 'tool:restart': tool } }, { requestTimeoutMs: 5000, inputRequired: { maxRounds: 8, deadlineMs: 150 } });
  const host = await connectHost(gateway, { elicitation: {} });
  const answerAfter = async (call: Promise<JsonRpcMessage>, ticket: string, waitMs: number) => {
    const asked = (await host.waitFor((s) => 'method' in s.message && s.message.method === 'elicitation/create' && !seen.has(String((s.message as JsonRpcRequest).id)))).message as JsonRpcRequest;
    seen.add(String(asked.id));
    await new Promise((r) => setTimeout(r, waitMs));
    host.session.receive({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirm: true, ticket } } });
    return call;
  };
  const seen = new Set<string>();
  const thinking = await answerAfter(host.request('tools/call', { name: 'restart', arguments: {} }), 'quick', 300);
  assert.equal(textOf(thinking), 'done quick', 'a person thinking longer than the deadline does not count');
  const slow = await answerAfter(host.request('tools/call', { name: 'restart', arguments: {} }), 'slow', 0);
  assert.ok('result' in slow);
  assert.equal(slow.result.isError, true);
  assert.equal(textOf(slow), "The call could not be completed: upstream 'desk' it did not complete within inputRequired.deadline (150 ms; the clock stops while a question is open)");
  await gateway.close();
});

test('pair 3: a question nobody can answer (route host, host without the capability) gets -32601, which no retry can carry: the call ends isError', async () => {
  const desk = new QuestionDesk({ store: new MemoryQuestionStore(), logger: silentLogger, operatorAvailable: false });
  const policy = new QuestionPolicy({ defaults: { route: 'host', timeoutMs: 60_000 } });
  const { up, gateway } = setup({ handlers: { 'tool:restart': asks({ approval: APPROVAL }) } }, {}, { desk, policy });
  const host = await connectHost(gateway, {});
  // This fake asks whatever the envelope says (the incident desk would not ask at all). Not `cancel`: nobody cancelled.
  const ended = await host.request('tools/call', { name: 'restart', arguments: {} });
  assert.equal((ended as { result?: { isError?: boolean } }).result?.isError, true, JSON.stringify(ended));
  assert.match(textOf(ended), /its elicitation 'approval' was answered with an error: .*did not declare the elicitation capability.*\(-32601\)/);
  assert.equal(served(up).requests('tools/call').length, 1, 'no retry carries an error');
  const [cancelled] = await desk.list({ state: 'cancelled' });
  assert.equal(cancelled?.audience, 'none');
  assert.equal(cancelled?.origin.tool, 'restart');
  await gateway.close();
});

test('pair 3: with questions.sampling: operator, an operator answers what the host cannot (sampling), through the same desk record', async () => {
  const desk = new QuestionDesk({ store: new MemoryQuestionStore(), logger: silentLogger, operatorAvailable: true });
  const policy = new QuestionPolicy({ defaults: { route: 'host-then-operator', timeoutMs: 60_000 }, sampling: 'operator' });
  const { up, gateway } = setup({ handlers: { 'tool:summarize': asks({ summary: SUMMARY }) } }, {}, { desk, policy });
  const host = await connectHost(gateway, {}, '2025-06-18');
  const call = host.request('tools/call', { name: 'summarize', arguments: { id: 'INC-1' } });
  const question = await openQuestion(desk);
  assert.equal(question.audience, 'operator');
  assert.equal(question.method, 'sampling/createMessage');
  assert.equal(question.origin.upstream, 'desk');
  assert.equal(question.origin.tool, 'summarize');
  assert.deepEqual(question.params, SUMMARY.params);
  const reply = { role: 'assistant', content: { type: 'text', text: 'Quiet.' }, model: 'operator', stopReason: 'endTurn' };
  assert.ok((await desk.answer(question.id, { action: 'accept', result: reply }, tokenOperator('alice'))).ok);
  assert.equal(textOf(await call), JSON.stringify({ summary: reply }));
  const envelope = served(up).requests('tools/call')[0]?.params?._meta as JsonObject;
  assert.deepEqual(envelope['io.modelcontextprotocol/clientCapabilities'], { elicitation: { form: {} }, sampling: {} }, 'what an operator can answer is declared');
  await gateway.close();
});

test('pair 3: a host that cancels while asked gets its question withdrawn and its call ended; nothing more goes upstream', async () => {
  const { up, gateway } = setup({ handlers: { 'tool:restart': asks({ approval: APPROVAL }) } });
  const host = await connectHost(gateway, { elicitation: {} });
  const call = host.request('tools/call', { name: 'restart', arguments: {} }, 'c1');
  const asked = (await host.question('elicitation/create')).message as JsonRpcRequest;
  host.session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user' } });
  const ended = await call;
  assert.ok('error' in ended);
  assert.equal(ended.error.code, -32800);
  const withdrawn = await host.waitFor((s) => 'method' in s.message && s.message.method === 'notifications/cancelled');
  assert.deepEqual((withdrawn.message as { params: JsonObject }).params, { requestId: asked.id, reason: 'the call was cancelled' });
  host.session.receive({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirm: true, ticket: 'late' } } });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(served(up).requests('tools/call').length, 1);
  assert.equal(served(up).received.some((m) => !('method' in m)), false, 'a modern upstream is never sent a response');
  await gateway.close();
});

test('pair 3: progress of every leg reaches the host under its own token, on the call\'s stream', async () => {
  const tool: ModernHandler = async (request, server) => {
    const token = (request.params?._meta as JsonObject).progressToken as number;
    const retry = isObject(request.params?.inputResponses);
    await server.notify('notifications/progress', { progressToken: token, progress: retry ? 2 : 1, total: 2 });
    return retry ? textResult('done') : { resultType: 'input_required', inputRequests: { approval: APPROVAL } };
  };
  const { gateway } = setup({ handlers: { 'tool:work': tool } });
  const host = await connectHost(gateway, { elicitation: {} });
  const call = host.request('tools/call', { name: 'work', arguments: {}, _meta: { progressToken: 'p' } }, 'w');
  const asked = (await host.question('elicitation/create')).message as JsonRpcRequest;
  host.session.receive({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirm: true, ticket: 'x' } } });
  assert.equal(textOf(await call), 'done');
  const progress = host.sent.filter((s) => 'method' in s.message && s.message.method === 'notifications/progress');
  assert.deepEqual(progress.map((s) => [s.related, (s.message as { params: JsonObject }).params]), [
    ['w', { progressToken: 'p', progress: 1, total: 2 }],
    ['w', { progressToken: 'p', progress: 2, total: 2 }],
  ]);
  await gateway.close();
});

test('a modern upstream that sends a request is refused at once; the host never sees it', async () => {
  const tool: ModernHandler = async (_request, server) => {
    await server.sendRequest('srv-1', 'elicitation/create', APPROVAL.params);
    await new Promise((r) => setTimeout(r, 10));
    return textResult('went on');
  };
  const { up, gateway } = setup({ handlers: { 'tool:rogue': tool } });
  const host = await connectHost(gateway, { elicitation: {} });
  assert.equal(textOf(await host.request('tools/call', { name: 'rogue', arguments: {} })), 'went on');
  const refusal = served(up).received.find((m) => !('method' in m) && m.id === 'srv-1');
  assert.ok(refusal && 'error' in refusal);
  assert.equal(refusal.error.code, -32601);
  assert.equal(host.sent.some((s) => 'method' in s.message && s.message.method === 'elicitation/create'), false);
  await gateway.close();
});

test('an upstream that stops serving 2026-07-28 is detected again and the call retried once, as legacy', async () => {
  let mode: 'modern' | 'legacy' = 'modern';
  const legacy = fakeUpstreamFactory({ status: () => ({ content: [{ type: 'text', text: 'legacy now' }] }) });
  const modern = fakeModernFactory({
    handlers: {
      'tool:status': () => {
        mode = 'legacy';
        throw new ModernRpcError({ code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'], requested: '2026-07-28' } });
      },
    },
  });
  const open = (): Transport => (mode === 'modern' ? modern.open() : legacy.open());
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: open });
  await gateway.ready;
  assert.equal(gateway.health().upstreams[0]?.era, 'modern');
  const host = await connectHost(gateway);
  assert.equal(textOf(await host.request('tools/call', { name: 'status', arguments: {} })), 'legacy now');
  assert.equal(gateway.health().upstreams[0]?.era, 'legacy');
  assert.equal(gateway.health().upstreams[0]?.protocolVersion, '2025-11-25');
  await gateway.close();
});

test('a 2026-07-28 upstream whose lists change is listened to: its list changes reach the host and drop the cached list', async () => {
  let tools = [{ name: 'a', inputSchema: { type: 'object' } }];
  let listen: JsonRpcRequest | undefined;
  const { up, gateway } = setup({
    discover: () => ({ supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } }, resultType: 'complete', ttlMs: 0, cacheScope: 'private' }),
    handlers: {
      'tools/list': () => complete({ tools, ttlMs: 60_000, cacheScope: 'public' }),
      // The stream stays open: the handler never settles.
      'subscriptions/listen': (request) => {
        listen = request;
        return new Promise<JsonObject>(() => undefined);
      },
    },
  });
  const host = await connectHost(gateway);
  const first = await host.request('tools/list');
  assert.ok('result' in first && JSON.stringify(first.result).includes('"a"'));
  const server = served(up);
  await waitFor(() => listen !== undefined, 'the listen request');
  assert.deepEqual(listen?.params?.notifications, { toolsListChanged: true });
  assert.equal((listen?.params?._meta as JsonObject | undefined)?.['io.modelcontextprotocol/protocolVersion'], '2026-07-28');

  tools = [{ name: 'b', inputSchema: { type: 'object' } }];
  await server.notify('notifications/tools/list_changed', { _meta: { 'io.modelcontextprotocol/subscriptionId': listen?.id ?? null } });
  await waitFor(() => host.sent.some((s) => 'method' in s.message && s.message.method === 'notifications/tools/list_changed'), 'the list change at the host');
  const second = await host.request('tools/list');
  assert.ok('result' in second && JSON.stringify(second.result).includes('"b"'), 'the cached list (ttlMs 60 s) was dropped');
  assert.ok(!everythingSent(host).includes('subscriptions/acknowledged'));
  await gateway.close();
});

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
