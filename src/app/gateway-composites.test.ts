/** @module Tests of composite tools inside the gateway: listed with annotations, steps forwarded on the composite's stream, elicit steps through the desk (host or operator), cancellation. */

import { tokenOperator } from '../access/operator-principal.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QuestionDesk } from '../questions/desk.js';
import type { CompositeDefinition } from '../composite/definition.js';
import { COMPOSITE_DEFAULTS } from '../composite/definition.js';
import type { JsonObject, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import { QuestionPolicy } from '../questions/route-policy.js';
import type { FakeUpstream, ToolHandler } from '../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, connectHost, spec } from './testing/gateway-doubles.js';

const LIMITS = { maxSteps: COMPOSITE_DEFAULTS.maxSteps, maxForEachItems: COMPOSITE_DEFAULTS.maxForEachItems, totalTimeoutMs: 10_000 };
const TICKET = { type: 'object', properties: { ticket: { type: 'string' } }, required: ['ticket'] };

/** approve (elicit) → restart (tool, templated from the answer). */
const GUARDED: CompositeDefinition = {
  name: 'guarded_restart',
  description: 'Asks, then restarts.',
  inputSchema: { type: 'object', properties: { service: { type: 'string' } } },
  limits: LIMITS,
  steps: [
    { kind: 'elicit', id: 'approve', dependsOn: [], message: 'Restart {{ input.service }}?', requestedSchema: TICKET, timeoutMs: 5_000, onAccept: 'continue', onDecline: 'abort', onCancel: 'abort', onTimeout: 'abort' },
    { kind: 'tool', id: 'restart', dependsOn: ['approve'], upstream: 'desk', tool: 'restart', arguments: { service: '{{ input.service }}', ticket: '{{ steps.approve.content.ticket }}' }, retry: { count: 0, backoffMs: 10 }, timeoutMs: 5_000 },
  ],
};

/** One tool step that runs until cancelled. */
const SLOW: CompositeDefinition = {
  name: 'slow_job',
  description: 'Waits on its upstream.',
  inputSchema: { type: 'object' },
  limits: LIMITS,
  steps: [{ kind: 'tool', id: 'wait', dependsOn: [], upstream: 'desk', tool: 'hang', arguments: {}, retry: { count: 0, backoffMs: 10 }, timeoutMs: 5_000 }],
};

const tools: Record<string, ToolHandler> = {
  restart: (call) => ({ content: [{ type: 'text', text: `restarted ${JSON.stringify(call.params?.arguments)}` }] }),
  hang: () => new Promise<JsonObject>(() => undefined),
};

function setup(definitions: CompositeDefinition[], operatorAvailable = false) {
  const up = fakeUpstreamFactory(tools, { toolAnnotations: { restart: { destructiveHint: true } } });
  const cfg = { ...config([spec('desk')]), composites: definitions };
  const desk = new QuestionDesk({ store: new MemoryQuestionStore(), logger: silentLogger, operatorAvailable });
  const gateway = createGateway(cfg, {
    logger: silentLogger,
    openTransport: () => up.open(),
    questions: { desk, policy: new QuestionPolicy({ defaults: { route: 'host-then-operator', timeoutMs: 60_000 } }) },
  });
  return { up, desk, gateway };
}

function upstreamCalls(up: ReturnType<typeof fakeUpstreamFactory>): JsonRpcRequest[] {
  return up.servers.flatMap((server: FakeUpstream) => server.received.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m && m.method === 'tools/call'));
}

test('a composite is listed beside the upstream tools, annotated no safer than what it calls', async () => {
  const { gateway } = setup([GUARDED]);
  const host = await connectHost(gateway, { elicitation: {} });
  const list = await host.request('tools/list');
  assert.ok('result' in list);
  const entry = (list.result.tools as JsonObject[]).find((tool) => tool.name === 'guarded_restart');
  assert.ok(entry, JSON.stringify(list.result));
  assert.equal(entry.description, 'Asks, then restarts.');
  assert.equal((entry.annotations as JsonObject).destructiveHint, true);
  assert.equal((entry.annotations as JsonObject).readOnlyHint, false);
  await gateway.close();
});

test('the approval reaches the host on the composite call\'s stream; its answer fills the next step\'s arguments', async () => {
  const { up, gateway } = setup([GUARDED]);
  const host = await connectHost(gateway, { elicitation: {} });
  const pending = host.request('tools/call', { name: 'guarded_restart', arguments: { service: 'payments-api' } }, 'c1');
  const question = await host.question('elicitation/create');
  assert.equal(question.related, 'c1', 'asked on the stream of the composite call');
  assert.ok('method' in question.message && 'id' in question.message);
  assert.equal(question.message.params?.message, 'Restart payments-api?');
  host.session.receive({ jsonrpc: '2.0', id: question.message.id, result: { action: 'accept', content: { ticket: 'CHG-1' } } });
  const response = await pending;
  assert.ok('result' in response, JSON.stringify(response));
  assert.match(JSON.stringify(response.result), /restarted .*payments-api.*CHG-1/);
  assert.deepEqual(upstreamCalls(up).map((call) => call.params?.arguments), [{ service: 'payments-api', ticket: 'CHG-1' }]);
  await gateway.close();
});

test('a host that cannot elicit: the approval goes to the operator; the answer recorded there continues the run', async () => {
  const { desk, gateway } = setup([GUARDED], true);
  const host = await connectHost(gateway, {}, '2025-06-18');
  const pending = host.request('tools/call', { name: 'guarded_restart', arguments: { service: 'payments-api' } });
  let open;
  for (let i = 0; i < 300 && !open; i += 1) {
    [open] = await desk.list({ state: ['delivered'] });
    if (!open) await new Promise((r) => setTimeout(r, 5));
  }
  assert.ok(open, 'the question waits for an operator');
  assert.equal(open.audience, 'operator');
  assert.equal(open.origin.upstream, 'composite');
  assert.equal(open.origin.tool, 'guarded_restart');
  const outcome = await desk.answer(open.id, { action: 'accept', content: { ticket: 'CHG-7' } }, tokenOperator('alice'));
  assert.equal(outcome.ok, true);
  const response = await pending;
  assert.ok('result' in response);
  assert.match(JSON.stringify(response.result), /CHG-7/);
  await gateway.close();
});

test('a decline aborts the composite with an isError result naming who declined; the tool step never runs', async () => {
  const { up, gateway } = setup([GUARDED]);
  const host = await connectHost(gateway, { elicitation: {} });
  const pending = host.request('tools/call', { name: 'guarded_restart', arguments: { service: 'payments-api' } });
  const question = await host.question('elicitation/create');
  assert.ok('method' in question.message && 'id' in question.message);
  host.session.receive({ jsonrpc: '2.0', id: question.message.id, result: { action: 'decline' } });
  const response = await pending;
  assert.ok('result' in response);
  assert.equal(response.result.isError, true);
  assert.match(JSON.stringify(response.result), /declined by the host/);
  assert.equal(upstreamCalls(up).length, 0);
  await gateway.close();
});

test('the host cancelling a composite cancels the step\'s upstream call', async () => {
  const { up, gateway } = setup([SLOW]);
  const host = await connectHost(gateway, {});
  const pending = host.request('tools/call', { name: 'slow_job', arguments: {} }, 'slow');
  for (let i = 0; i < 300 && upstreamCalls(up).length === 0; i += 1) await new Promise((r) => setTimeout(r, 5));
  const [call] = upstreamCalls(up);
  assert.ok(call, 'the step reached the upstream');
  host.session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'user' } });
  const response = await pending;
  assert.ok('result' in response && response.result.isError === true, JSON.stringify(response));
  const cancelled = up.servers.flatMap((server: FakeUpstream) => server.received).some((m) => 'method' in m && m.method === 'notifications/cancelled' && m.params?.requestId === call.id);
  assert.ok(cancelled, 'the upstream was told');
  await gateway.close();
});
