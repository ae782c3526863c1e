/**
 * @module e2e/capability-promises.test: what an upstream is promised on a host's behalf under the default question
 * settings (route host-then-operator, an operator present, `questions.sampling` and `questions.consent` at `host`),
 * seen from the upstream's side (the recording upstream's initialize) and through the incident desk's tools; and where
 * consent questions go by default (item 19: to the host that can take them).
 */
import assert from 'node:assert/strict';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { parse } from 'yaml';

import { type GatewayConfig, type RunningGateway, startGateway } from './harness/gateway.js';
import { OperatorApi } from './harness/operator-api.js';
import { REPO_ROOT, TSX_FLAGS } from './harness/paths.js';
import { RawHost } from './harness/raw-host.js';
import { isRequest, isToolError, toolText } from './harness/tool-results.js';
import { incidentDeskStdio, labStdio } from './harness/upstreams.js';

const RECORDING_UPSTREAM_MAIN = fileURLToPath(new URL('../fixtures/recording-upstream/main.ts', import.meta.url));

interface RecordLine {
  dir: 'in' | 'out';
  message: { method?: string; params?: { capabilities?: unknown; clientInfo?: { name?: string } } };
}

/** The capabilities of every initialize the recording upstream received from a host session named `client`. */
async function initializeCapabilities(recordFile: string, client: string): Promise<unknown[]> {
  const text = await readFile(recordFile, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RecordLine)
    .filter((line) => line.dir === 'in' && line.message.method === 'initialize' && line.message.params?.clientInfo?.name === client)
    .map((line) => line.message.params?.capabilities);
}

/** Polls the record (bounded: 20 s) until the upstream has seen the initialize of `client`. */
async function awaitInitialize(recordFile: string, client: string): Promise<unknown[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = await initializeCapabilities(recordFile, client);
    if (found.length > 0 || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A gateway (operator console on) with a recording upstream `rec` beside `upstreams`; the record file in a temp folder. */
function recordingGateway(upstreams: GatewayConfig['upstreams'], questions: GatewayConfig['questions']): { readonly gateway: RunningGateway; readonly recordFile: string } {
  let gateway: RunningGateway | undefined;
  let dir = '';
  let recordFile = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-promises-'));
    recordFile = join(dir, 'upstream-record.jsonl');
    gateway = await startGateway({
      upstreams: { ...upstreams, rec: { command: process.execPath, args: [...TSX_FLAGS, RECORDING_UPSTREAM_MAIN], cwd: REPO_ROOT, env: { RECORD_FILE: recordFile } } },
      questions,
      console: { token: 'promises-e2e-token' },
    });
  });
  after(async () => {
    await gateway?.stop();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get gateway() {
      if (!gateway) throw new Error('the gateway has not started');
      return gateway;
    },
    get recordFile() {
      return recordFile;
    },
  };
}

describe('issue 11 item 11: an upstream is promised what its host declared, plus form elicitation (default question settings)', { timeout: 120_000 }, () => {
  // The bundled switchboard.yaml sets no `questions`: the defaults, with an operator (the console) present.
  const rec = recordingGateway({ desk: incidentDeskStdio() }, {});

  test('the bundled switchboard.yaml leaves `questions` at these defaults', async () => {
    const bundled = parse(await readFile(join(REPO_ROOT, 'switchboard.yaml'), 'utf8')) as Record<string, unknown>;
    assert.equal(bundled.questions, undefined, 'if the bundled config sets questions, this suite must use them');
    assert.ok(bundled.console === undefined || (bundled.console as { enabled?: boolean }).enabled !== false, 'the bundled config has an operator');
  });

  test('summarize_incident for a host without sampling returns its plain summary at once, asking nobody', async (t) => {
    const host = await RawHost.connect(rec.gateway.url, { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } } });
    t.after(() => host.close());
    const messages = await (await host.callTool(1, 'summarize_incident', { id: 'INC-1042' })).rest(20_000);
    assert.deepEqual(messages.filter(isRequest), [], 'no question is put to the host');
    const result = messages.find((message) => message.id === 1);
    assert.ok(result, `the call was answered within 20 s (a question for an operator would hold it for 5 min): ${rec.gateway.logs()}`);
    assert.equal(isToolError(result), false);
    assert.match(toolText(result), /^INC-1042 \(SEV1, open\) on payments-api: .*\[plain summary: the host offers no sampling\]$/);
  });

  test('at 2025-11-25 the upstream\'s initialize shows exactly the host\'s capabilities plus form elicitation', async (t) => {
    const client = 'promises-roots-host';
    const host = await RawHost.connect(rec.gateway.url, { protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true } }, clientInfo: { name: client, version: '1.0.0' } });
    t.after(() => host.close());
    // A call opens the host's own upstream session (a list is answered from the gateway's list session).
    await (await host.request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'toggle_extra', arguments: {} } })).rest();
    assert.deepEqual(await awaitInitialize(rec.recordFile, client), [{ roots: { listChanged: true }, elicitation: { form: {} } }]);
  });

  test('at 2025-06-18 a capability-less host\'s upstream is promised elicitation only', async (t) => {
    const client = 'promises-bare-host';
    const host = await RawHost.connect(rec.gateway.url, { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: client, version: '1.0.0' } });
    t.after(() => host.close());
    // A call opens the host's own upstream session (a list is answered from the gateway's list session).
    await (await host.request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'toggle_extra', arguments: {} } })).rest();
    assert.deepEqual(await awaitInitialize(rec.recordFile, client), [{ elicitation: {} }]);
  });
});

describe('issue 11 item 11: questions.sampling: operator promises sampling to the upstreams of hosts that cannot sample', { timeout: 120_000 }, () => {
  const rec = recordingGateway({}, { sampling: 'operator' });

  test('the upstream is told the host can sample (an operator types the reply); roots still need the host', async (t) => {
    const client = 'promises-operator-sampling-host';
    const host = await RawHost.connect(rec.gateway.url, { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: client, version: '1.0.0' } });
    t.after(() => host.close());
    // A call opens the host's own upstream session (a list is answered from the gateway's list session).
    await (await host.request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'toggle_extra', arguments: {} } })).rest();
    assert.deepEqual(await awaitInitialize(rec.recordFile, client), [{ elicitation: { form: {} }, sampling: {} }]);
  });
});

describe('issue 11 item 19: a URL-mode elicitation goes to the host that declared it can take it (default question settings)', { timeout: 120_000 }, () => {
  const TOKEN = 'promises-e2e-token';
  let gateway: RunningGateway;

  before(async () => {
    gateway = await startGateway({ upstreams: { lab: labStdio() }, questions: {}, console: { token: TOKEN } });
  });
  after(() => gateway?.stop());

  test('the host receives the "connect your account" URL and its accept reaches the upstream; no operator saw it', async (t) => {
    const host = await RawHost.connect(gateway.url, { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {}, url: {} } } });
    t.after(() => host.close());
    const call = await host.callTool(1, 'elicit_url', { elicitationId: 'consent-1' });
    const question = await call.expectNext(20_000);
    assert.equal(question.method, 'elicitation/create', `the host is asked, not an operator: ${JSON.stringify(question)}`);
    assert.equal((question.params as { mode?: string }).mode, 'url');
    assert.equal((await host.answer(question.id, { action: 'accept' })).status, 202);
    const result = (await call.rest()).find((message) => message.id === 1);
    assert.equal(toolText(result), JSON.stringify({ action: 'accept' }));

    const records = await new OperatorApi(gateway.url, TOKEN).list('state=answered');
    assert.deepEqual(records.map((record) => [record.method, record.audience, record.answeredBy?.kind]), [['elicitation/create', 'host', 'host']], JSON.stringify(records));
  });
});
