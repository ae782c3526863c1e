/**
 * @module e2e/modern-upstream.test: legacy hosts (raw HTTP at 2025-11-25 and 2025-06-18) in front of the incident desk in its
 * 2026-07-28 `--stateless` mode, over stdio and Streamable HTTP, through a real `switchboard serve`: the era is detected and
 * reported, and the desk's `input_required` rounds reach the host as ordinary questions on its call's stream (pair 3 of the
 * era bridge), or an operator over REST; an upstream that changes era under the gateway is detected again.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { restartApprovalInputParams } from '../../examples/incident-desk/tools/restart-approval.js';
import { type RunningGateway, startGateway, writeConfigFile } from './harness/gateway.js';
import { OperatorApi } from './harness/operator-api.js';
import { REPO_ROOT, SWITCHBOARD_BIN, TSX_FLAGS } from './harness/paths.js';
import { freePort } from './harness/ports.js';
import { RawHost } from './harness/raw-host.js';
import type { WireMessage } from './harness/sse-reader.js';
import { isRequest, isToolError, toolNames, toolText } from './harness/tool-results.js';
import {
  type HttpUpstream,
  incidentDeskStdio,
  startIncidentDeskHttp,
  startStatelessDeskHttp,
  statelessDeskStdio,
  streamableHttpUpstream,
  type UpstreamEntry,
} from './harness/upstreams.js';

type TestContext = { after(fn: () => Promise<void>): void };

const NEW = '2025-11-25';
const OLD = '2025-06-18';
const BOTH = { elicitation: {}, sampling: {} };
const APPROVE = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } as const;
const MODEL_REPLY = {
  role: 'assistant',
  content: { type: 'text', text: 'Checkout card payments fail with 502s; the ledger-db pool is saturated.' },
  model: 'e2e-model',
  stopReason: 'endTurn',
} as const;
/** What a 2026-07-28 exchange carries that a legacy host must never see. */
const MODERN_ONLY = /resultType|inputRequests|inputResponses|requestState|ttlMs|cacheScope/;

async function connect(t: TestContext, gateway: RunningGateway, protocolVersion: string, capabilities: Record<string, unknown>): Promise<RawHost> {
  const host = await RawHost.connect(gateway.url, { protocolVersion, capabilities });
  assert.equal(host.protocolVersion, protocolVersion);
  t.after(() => host.close());
  return host;
}

/** The call's final response among what is left of its stream; nothing else may be a request. */
function finalOf(messages: readonly WireMessage[], id: number): WireMessage {
  assert.deepEqual(messages.filter(isRequest), [], 'no further question');
  const final = messages.find((message) => message.id === id && message.method === undefined);
  assert.ok(final, JSON.stringify(messages));
  return final;
}

function assertNoModernFields(host: RawHost): void {
  assert.doesNotMatch(JSON.stringify(host.wire), MODERN_ONLY, 'the host saw 2026-only fields');
}

const TRANSPORTS: { name: string; start: () => Promise<{ entry: UpstreamEntry; stop: () => Promise<void> }> }[] = [
  { name: 'stdio', start: async () => ({ entry: statelessDeskStdio(), stop: async () => undefined }) },
  {
    name: 'Streamable HTTP',
    start: async () => {
      const desk = await startStatelessDeskHttp();
      return { entry: streamableHttpUpstream(desk.url), stop: () => desk.stop() };
    },
  },
];

for (const transport of TRANSPORTS) {
  describe(`legacy hosts in front of the stateless incident desk over ${transport.name} (route: host)`, () => {
    let gateway: RunningGateway;
    let stopDesk: () => Promise<void> = async () => undefined;
    before(async () => {
      const desk = await transport.start();
      stopDesk = desk.stop;
      gateway = await startGateway({ upstreams: { desk: desk.entry } });
    });
    after(async () => {
      await gateway?.stop();
      await stopDesk();
    });

    test('/healthz names the era and the revision; the lists reach the host without cache hints', async (t) => {
      const { status, body } = await gateway.health();
      assert.equal(status, 200);
      const [desk] = body.upstreams;
      assert.equal(desk?.state, 'up', JSON.stringify(body));
      assert.equal(desk?.era, 'modern');
      assert.equal(desk?.protocolVersion, '2026-07-28');
      assert.deepEqual(desk?.serverInfo, { name: 'incident-desk', version: '0.1.0' });
      const host = await connect(t, gateway, NEW, BOTH);
      assert.deepEqual(toolNames(await host.call(1, 'tools/list')).sort(), ['restart_service', 'summarize_incident']);
      const templates = await host.call(2, 'resources/templates/list');
      assert.equal((templates.result?.resourceTemplates as unknown[] | undefined)?.length, 2);
      assertNoModernFields(host);
    });

    test(`${NEW} host: restart_service asks on the call's stream, the approval is retried upstream, RESTARTED`, async (t) => {
      const host = await connect(t, gateway, NEW, BOTH);
      const call = await host.callTool(7, 'restart_service', { service: 'payments-api' });
      const question = await call.expectNext();
      assert.equal(question.method, 'elicitation/create');
      assert.match(String(question.id), /^sb-/);
      assert.deepEqual(question.params, restartApprovalInputParams('payments-api'), 'the desk\'s embedded question, as it asked it');
      const answered = await host.answer(question.id, APPROVE);
      assert.equal(answered.status, 202, answered.text);
      const final = finalOf(await call.rest(), 7);
      assert.equal(isToolError(final), false, JSON.stringify(final));
      assert.equal(toolText(final), 'RESTARTED payments-api under CHG-2291');
      assertNoModernFields(host);
    });

    test(`${OLD} host: the question is fitted to its revision; a decline goes upstream and the desk says NOT RESTARTED`, async (t) => {
      const host = await connect(t, gateway, OLD, BOTH);
      const call = await host.callTool(8, 'restart_service', { service: 'payments-api' });
      const question = await call.expectNext();
      assert.equal(question.method, 'elicitation/create');
      const { mode: _mode, ...withoutMode } = restartApprovalInputParams('payments-api') as Record<string, unknown>;
      assert.deepEqual(question.params, withoutMode, 'no mode for a 2025-06-18 host');
      assert.equal((await host.answer(question.id, { action: 'decline' })).status, 202);
      const final = finalOf(await call.rest(), 8);
      assert.equal(toolText(final), 'NOT RESTARTED payments-api: approval declined');
      assertNoModernFields(host);
    });

    test('summarize_incident: the desk\'s embedded sampling request reaches the host, whose model\'s reply makes the summary', async (t) => {
      const host = await connect(t, gateway, NEW, BOTH);
      const call = await host.callTool(9, 'summarize_incident', { id: 'INC-1042' });
      const question = await call.expectNext();
      assert.equal(question.method, 'sampling/createMessage');
      assert.equal(question.params?.maxTokens, 300);
      assert.match(JSON.stringify(question.params?.messages), /Summarise incident INC-1042/);
      assert.equal((await host.answer(question.id, MODEL_REPLY)).status, 202);
      const final = finalOf(await call.rest(), 9);
      assert.equal(toolText(final), `Summary of INC-1042 (by e2e-model):\n${MODEL_REPLY.content.text}`);
      assertNoModernFields(host);
    });

    test('a host without elicitation (route: host) gets the desk\'s own answer for it: an isError result, no question', async (t) => {
      const host = await connect(t, gateway, OLD, {});
      const final = finalOf(await (await host.callTool(10, 'restart_service', { service: 'payments-api' })).rest(), 10);
      assert.equal(isToolError(final), true);
      assert.equal(toolText(final), "restart_service: the host cannot answer elicitation/create (the request's client capabilities declare no form elicitation)");
      const plain = finalOf(await (await host.callTool(11, 'summarize_incident', { id: 'INC-1042' })).rest(), 11);
      assert.match(toolText(plain), /\[plain summary: the host offers no sampling\]$/, 'no sampling declared: the desk summarises alone');
      assertNoModernFields(host);
    });
  });
}

describe('host-then-operator: a 2025-06-18 host without elicitation; the stateless desk\'s question goes to an operator over REST', () => {
  const TOKEN = 'e2e-operator-token-modern-9fQ2';
  let gateway: RunningGateway;
  let api: OperatorApi;
  before(async () => {
    gateway = await startGateway({ upstreams: { desk: statelessDeskStdio() }, questions: { route: 'host-then-operator' }, console: { token: TOKEN } });
    api = new OperatorApi(gateway.url, TOKEN, 'Ada');
  });
  after(() => gateway?.stop());

  test('the operator answers the embedded approval like any question; the call completes', async (t) => {
    const host = await connect(t, gateway, OLD, {});
    const known = await api.ids();
    const call = await host.callTool(1, 'restart_service', { service: 'payments-api' });
    const question = await api.awaitNewQuestion(known, 'state=delivered');
    assert.equal(question.method, 'elicitation/create');
    assert.deepEqual(question.params, restartApprovalInputParams('payments-api'));
    assert.equal(question.upstream, 'desk');
    assert.equal(question.tool, 'restart_service');
    assert.equal(question.audience, 'operator');
    assert.equal(question.hostRevision, OLD);
    const answered = await api.answer(question.id, APPROVE);
    assert.equal(answered.status, 200, answered.text);
    const final = finalOf(await call.rest(), 1);
    assert.equal(toolText(final), 'RESTARTED payments-api under CHG-2291');
    const detail = await api.detail(question.id);
    assert.deepEqual(detail.question.answeredBy, { kind: 'operator', name: 'Ada' });
    assertNoModernFields(host);
  });
});

describe('an HTTP upstream that comes back in the other era on the same port is detected again; the host never notices', () => {
  let desk: HttpUpstream | undefined;
  after(() => desk?.stop());

  test('legacy desk, then the stateless one, then legacy again', async (t) => {
    const port = await freePort();
    desk = await startIncidentDeskHttp(`127.0.0.1:${port}`);
    const gateway = await startGateway({ upstreams: { desk: streamableHttpUpstream(desk.url) } });
    t.after(() => gateway.stop());
    assert.equal((await gateway.health()).body.upstreams[0]?.era, 'legacy');
    const host = await connect(t, gateway, NEW, {});
    const call = async (id: number) => toolText(finalOf(await (await host.callTool(id, 'summarize_incident', { id: 'INC-1042' })).rest(), id));
    const expected = await call(1);
    assert.match(expected, /^INC-1042 /);

    await desk.stop();
    desk = await startStatelessDeskHttp(`127.0.0.1:${port}`);
    assert.equal(await call(2), expected, 'the legacy session is refused with -32022: detected again, modern');
    const modern = (await gateway.health()).body.upstreams[0];
    assert.deepEqual([modern?.era, modern?.protocolVersion], ['modern', '2026-07-28']);

    await desk.stop();
    desk = await startIncidentDeskHttp(`127.0.0.1:${port}`);
    assert.equal(await call(3), expected, 'a 2026 request is refused as a legacy server refuses it: detected again, legacy');
    const legacy = (await gateway.health()).body.upstreams[0];
    assert.deepEqual([legacy?.era, legacy?.protocolVersion], ['legacy', '2025-11-25']);
    assertNoModernFields(host);
  });
});

/** The conformance fixture over stdio: an SDK v2 server in the SDK's default mode, which serves both eras. */
const DUAL_ERA_FIXTURE: UpstreamEntry = { command: process.execPath, args: [...TSX_FLAGS, join(REPO_ROOT, 'test/fixtures/conformance-upstream/main.ts')], cwd: REPO_ROOT };

test('switchboard check names the era of each upstream; one that serves both eras is spoken to in the hosts\' (legacy)', async (t) => {
  const file = await writeConfigFile({ upstreams: { modern: statelessDeskStdio(), legacy: incidentDeskStdio(), dual: DUAL_ERA_FIXTURE } });
  t.after(() => file.remove());
  const output = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [SWITCHBOARD_BIN, 'check', '--config', file.path], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
  assert.equal(output.code, 0, output.stdout);
  assert.match(output.stdout, /modern \(stdio\): ok\n {2}era: {10}modern \(stateless, no initialize\)\n {2}revision: {5}2026-07-28\n/);
  assert.match(output.stdout, /legacy \(stdio\): ok\n {2}era: {10}legacy \(initialize, sessions\)\n {2}revision: {5}2025-11-25\n/);
  assert.match(output.stdout, /offers: {7}2 tools, 8 resources, 2 resource templates, 1 prompt\n[\s\S]*offers: {7}2 tools, 8 resources, 2 resource templates, 1 prompt\n/);
  assert.match(output.stdout, /dual \(stdio\): ok\n {2}era: {10}legacy \(initialize, sessions\)\n {2}revision: {5}2025-11-25\n/);
});

test('an upstream serving both eras keeps what 2026-07-28 dropped for legacy hosts: resources/subscribe works', async (t) => {
  const gateway = await startGateway({ upstreams: { fixture: DUAL_ERA_FIXTURE } });
  t.after(() => gateway.stop());
  assert.equal((await gateway.health()).body.upstreams[0]?.era, 'legacy');
  const host = await connect(t, gateway, NEW, {});
  const subscribed = await host.call(1, 'resources/subscribe', { uri: 'test://watched-resource' });
  assert.deepEqual(subscribed.result, {}, JSON.stringify(subscribed));
});
