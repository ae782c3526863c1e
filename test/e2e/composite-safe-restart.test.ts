/**
 * @module e2e/composite-safe-restart.test: the example composite `safe_restart` (examples/incident-desk/composites.yaml)
 * through the real `switchboard serve` with the incident desk over stdio: a host that elicits answers both questions (the
 * composite's approval, then the desk's own) and gets progress per step; a declined approval stops the run before the
 * restart; a host that cannot elicit has both questions answered by an operator in the console in Chromium, and the
 * console's Runs view shows the run; a definition with an unknown step or an unknown upstream tool starts nothing.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import type { CallToolResult, CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, Progress } from '@modelcontextprotocol/client';
import type { Browser, BrowserServer, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { parse, stringify } from 'yaml';

import { deadline, runToExit, within } from './harness/bounded.js';
import { gatewayEnv, type RunningGateway, startGateway, TEST_CONFIG_DEFAULTS } from './harness/gateway.js';
import { OperatorApi, type QuestionDetail } from './harness/operator-api.js';
import { REPO_ROOT, SWITCHBOARD_BIN } from './harness/paths.js';
import { connectSdkHttp, type SdkHost } from './harness/sdk-host.js';
import { incidentDeskStdio } from './harness/upstreams.js';

const EXAMPLE = join(REPO_ROOT, 'examples', 'incident-desk', 'composites.yaml');
const TOKEN = 'e2e-composite-token-9c41f7d2';
const OPERATOR = 'Ada';
const CHROMIUM = '/usr/bin/chromium';
const noChromium = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the console part`;

/** Every call, page wait and poll gives up after these. */
const CALL_MS = 20_000;
const UI_WAIT_MS = 10_000;
const POLL_MS = 5_000;
/** Every close gives up after this; then the process is killed. */
const CLOSE_MS = 4_000;

const INCIDENT = 'INC-1042';
/** The composite's approval question, rendered from the incident resource (examples/incident-desk/data.ts). */
const APPROVAL_MESSAGE = 'Restart payments-api for INC-1042 (SEV1: Card payments failing with 502 at checkout)?';
/** The desk's own question, asked inside `restart_service`. */
const DESK_MESSAGE = 'Restart payments-api? This drops in-flight requests.';
const STEP_IDS = ['incident', 'approve', 'restart', 'summary'];
const MODEL = 'e2e-model';
const SAMPLED = 'Payments API returned 502s at checkout; restarted under change control.';

interface RunStep {
  id: string;
  kind: string;
  state: string;
  startedAt?: string;
  finishedAt?: string;
  attempts?: number;
  reason?: string;
  outcome?: string;
  answer?: unknown;
  questionId?: string;
  output?: unknown;
}
interface RunRecord {
  id: string;
  composite: string;
  hostSessionId: string;
  state: string;
  input: unknown;
  steps: RunStep[];
  summary?: string;
  startedAt: string;
  finishedAt?: string;
}
interface RunSummary {
  id: string;
  composite: string;
  state: string;
  steps: number;
  stepStates: Record<string, number>;
  questionIds: string[];
}
type QuestionWithRun = QuestionDetail & { runId?: string; runStepId?: string };

/** The gateway's config: the desk over stdio, the example composites by absolute path, the console behind TOKEN. */
function startCompositeGateway(extra: Record<string, unknown> = {}): Promise<RunningGateway> {
  return startGateway({ upstreams: { desk: incidentDeskStdio() }, composites: EXAMPLE, console: { token: TOKEN }, ...extra });
}

/** A gateway stop that cannot hang `after`: the harness's own TERM-then-KILL, then a KILL of the group at the deadline. */
async function stopGateway(gateway: RunningGateway | undefined): Promise<void> {
  if (!gateway) return;
  if (await within(gateway.stop(), CLOSE_MS)) return;
  try {
    process.kill(-gateway.process.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function closeHost(host: SdkHost | undefined): Promise<void> {
  if (host) await within(host.close(), CLOSE_MS);
}

async function getJson<T>(api: OperatorApi, path: string): Promise<T> {
  const reply = await api.send('GET', path);
  assert.equal(reply.status, 200, `GET ${path}: ${reply.text}`);
  return reply.json as T;
}

/** Polls `GET /api/runs` until a run not in `known` is listed in a state other than `running`; returns its summary. */
async function awaitFinishedRun(api: OperatorApi, known: ReadonlySet<string>): Promise<RunSummary> {
  const until = Date.now() + POLL_MS;
  let last: RunSummary[] = [];
  while (Date.now() < until) {
    last = await getJson<RunSummary[]>(api, '/api/runs?composite=safe_restart');
    const found = last.find((run) => !known.has(run.id) && run.state !== 'running');
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no finished safe_restart run within ${POLL_MS} ms; listed ${JSON.stringify(last)}`);
}

async function runIds(api: OperatorApi): Promise<Set<string>> {
  return new Set((await getJson<RunSummary[]>(api, '/api/runs?limit=1000')).map((run) => run.id));
}

function accept(content: Record<string, unknown>): ElicitResult {
  return { action: 'accept', content: content as ElicitResult['content'] };
}

function sampled(request: CreateMessageRequest): CreateMessageResult {
  assert.ok(request.params.messages.length > 0);
  return { role: 'assistant', content: { type: 'text', text: SAMPLED }, model: MODEL, stopReason: 'endTurn' };
}

const resultText = (result: CallToolResult): string => result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');

describe('safe_restart for a host that elicits and samples (SDK v2 over Streamable HTTP)', { timeout: 90_000 }, () => {
  let gateway: RunningGateway | undefined;
  let api: OperatorApi;
  const hosts: SdkHost[] = [];

  before(async () => {
    gateway = await startCompositeGateway({ questions: { route: 'host-then-operator' } });
    api = new OperatorApi(gateway.url, TOKEN, OPERATOR);
  });
  after(async () => {
    for (const host of hosts) await closeHost(host);
    await stopGateway(gateway);
  });

  async function connect(answer: (request: ElicitRequest) => ElicitResult, asked: ElicitRequest[], samples: CreateMessageRequest[]): Promise<SdkHost> {
    assert.ok(gateway);
    const host = await connectSdkHttp(gateway.url, { elicitation: {}, sampling: {} }, {
      elicit: (request) => {
        asked.push(request);
        return answer(request);
      },
      sample: (request) => {
        samples.push(request);
        return sampled(request);
      },
    });
    hosts.push(host);
    return host;
  }

  it('lists safe_restart with the example\'s schemas and annotations no safer than restart_service', async () => {
    const host = await connect(() => ({ action: 'cancel' }), [], []);
    const { tools } = await deadline(host.client.listTools(), CALL_MS, 'tools/list');
    const tool = tools.find((entry) => entry.name === 'safe_restart');
    assert.ok(tool, `safe_restart is listed: ${JSON.stringify(tools.map((entry) => entry.name))}`);
    assert.deepEqual(tool.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    assert.deepEqual(tool.inputSchema.required, ['incident']);
    assert.deepEqual(tool.outputSchema?.required, ['service', 'ticket', 'restart', 'summary']);
  });

  it('runs end to end: two questions in order, a progress notification per finished step, the structured result', async () => {
    const asked: ElicitRequest[] = [];
    const samples: CreateMessageRequest[] = [];
    const host = await connect(() => accept({ confirm: true, ticket: 'CHG-2291' }), asked, samples);
    const knownRuns = await runIds(api);
    const progress: Progress[] = [];

    const result = (await deadline(
      host.client.callTool({ name: 'safe_restart', arguments: { incident: INCIDENT } }, { onprogress: (p) => progress.push(p), timeout: CALL_MS }),
      CALL_MS + 1_000,
      'safe_restart',
    )) as CallToolResult;

    assert.notEqual(result.isError, true, resultText(result));
    assert.deepEqual(result.structuredContent, {
      service: 'payments-api',
      ticket: 'CHG-2291',
      restart: 'RESTARTED payments-api under CHG-2291',
      summary: `Summary of ${INCIDENT} (by ${MODEL}):\n${SAMPLED}`,
    });

    assert.deepEqual(
      asked.map((request) => request.params.message),
      [APPROVAL_MESSAGE, DESK_MESSAGE],
      'exactly two questions: the composite\'s approval naming the incident, then the desk\'s own',
    );
    assert.ok(asked[0]?.params.message.includes(INCIDENT));
    const approvalSchema = (asked[0]?.params as { requestedSchema?: { properties?: Record<string, unknown>; required?: string[] } }).requestedSchema;
    assert.deepEqual(Object.keys(approvalSchema?.properties ?? {}), ['confirm', 'ticket']);
    assert.deepEqual(approvalSchema?.required, ['confirm', 'ticket']);
    assert.equal(samples.length, 1, 'summarize_incident sampled the host once');

    assert.deepEqual(
      progress.map((p) => [p.progress, p.total]),
      [[1, 4], [2, 4], [3, 4], [4, 4]],
      `one progress notification per finished step: ${JSON.stringify(progress)}`,
    );
    assert.deepEqual(progress.map((p) => p.message), STEP_IDS.map((id) => `${id}: completed`));
    const sent = host.wire.find((entry) => entry.direction === 'host->gateway' && entry.message.method === 'tools/call');
    assert.notEqual((sent?.message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken, undefined, 'the call asked for progress');

    // The run, as the operator API records it.
    const summary = await awaitFinishedRun(api, knownRuns);
    assert.equal(summary.state, 'completed', JSON.stringify(summary));
    assert.equal(summary.steps, 4);
    assert.deepEqual(summary.stepStates, { completed: 4 });
    const run = await getJson<RunRecord>(api, `/api/runs/${encodeURIComponent(summary.id)}`);
    assert.equal(run.composite, 'safe_restart');
    assert.equal(run.state, 'completed');
    assert.deepEqual(run.input, { incident: INCIDENT });
    assert.deepEqual(run.steps.map((step) => [step.id, step.state]), STEP_IDS.map((id) => [id, 'completed']));
    for (const step of run.steps) {
      assert.ok(step.startedAt && step.finishedAt, `${step.id} has its times: ${JSON.stringify(step)}`);
      assert.ok(Date.parse(step.finishedAt) >= Date.parse(step.startedAt));
    }
    const approve = run.steps.find((step) => step.id === 'approve');
    assert.ok(approve);
    assert.equal(approve.kind, 'elicit');
    assert.equal(approve.outcome, 'accept');
    assert.deepEqual(approve.answer, { confirm: true, ticket: 'CHG-2291' });
    assert.equal(typeof approve.questionId, 'string');
    assert.deepEqual(summary.questionIds, [approve.questionId]);
    assert.equal(run.steps.find((step) => step.id === 'restart')?.attempts, 1);

    const question = await getJson<QuestionWithRun>(api, `/api/questions/${encodeURIComponent(approve.questionId ?? '')}`);
    assert.equal(question.runId, run.id, 'the question links to its run');
    assert.equal(question.runStepId, 'approve');
    assert.equal(question.question.state, 'answered');
    assert.equal(question.question.answeredBy?.kind, 'host');
    assert.equal(question.question.params.message, APPROVAL_MESSAGE);
  });

  it('a declined approval: isError naming the step and the host\'s decline; restart_service never called; the run aborted', async () => {
    const asked: ElicitRequest[] = [];
    const samples: CreateMessageRequest[] = [];
    const host = await connect(() => ({ action: 'decline' }), asked, samples);
    const knownRuns = await runIds(api);
    const knownQuestions = await api.ids();

    const result = (await deadline(
      host.client.callTool({ name: 'safe_restart', arguments: { incident: INCIDENT } }, { timeout: CALL_MS }),
      CALL_MS + 1_000,
      'safe_restart',
    )) as CallToolResult;

    assert.equal(result.isError, true, JSON.stringify(result));
    const text = resultText(result);
    assert.match(text, /\bsafe_restart\b/, `names the composite: ${text}`);
    assert.match(text, /step "approve"/, `names the step: ${text}`);
    assert.match(text, /declined by the host/, `says it was declined, and by whom: ${text}`);
    assert.equal(result.structuredContent, undefined, 'no structured result for an aborted run');

    assert.deepEqual(asked.map((request) => request.params.message), [APPROVAL_MESSAGE], 'only the approval was asked: the desk\'s own question never came');
    assert.equal(samples.length, 0, 'nothing was summarised');
    const newQuestions = (await api.list('limit=1000')).filter((question) => !knownQuestions.has(question.id));
    assert.deepEqual(
      newQuestions.map((question) => question.params.message),
      [APPROVAL_MESSAGE],
      'the desk recorded no question of restart_service',
    );

    const summary = await awaitFinishedRun(api, knownRuns);
    assert.equal(summary.state, 'aborted', JSON.stringify(summary));
    const run = await getJson<RunRecord>(api, `/api/runs/${encodeURIComponent(summary.id)}`);
    const byId = Object.fromEntries(run.steps.map((step) => [step.id, step]));
    assert.equal(byId.incident?.state, 'completed');
    // The question was answered (the step itself finished); its outcome is what aborted the run.
    assert.notEqual(byId.approve?.state, 'running', JSON.stringify(byId.approve));
    assert.equal(byId.approve?.outcome, 'decline');
    assert.match(byId.approve?.reason ?? '', /declined by the host/, JSON.stringify(byId.approve));
    for (const id of ['restart', 'summary']) {
      assert.notEqual(byId[id]?.state, 'completed', `${id} did not run: ${JSON.stringify(byId[id])}`);
      assert.notEqual(byId[id]?.state, 'running');
      assert.equal(byId[id]?.attempts ?? 0, 0, `${id} made no call: ${JSON.stringify(byId[id])}`);
      assert.equal(byId[id]?.startedAt, undefined, `${id} never started`);
    }
  });
});

describe('safe_restart for a host that cannot elicit: both questions answered in the console in Chromium', { skip: noChromium, timeout: 120_000 }, () => {
  let gateway: RunningGateway | undefined;
  let browserServer: BrowserServer | undefined;
  let browser: Browser | undefined;
  let host: SdkHost | undefined;
  let page: Page;
  let api: OperatorApi;
  const pageErrors: string[] = [];
  const samples: CreateMessageRequest[] = [];
  let runId: string | undefined;

  before(async () => {
    // `questions: {}` leaves the route at the gateway's own default (host-then-operator).
    gateway = await startCompositeGateway({ questions: {} });
    api = new OperatorApi(gateway.url, TOKEN, OPERATOR);
    // A browser server, so that `after` can kill the browser should closing it hang.
    browserServer = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'], timeout: 30_000 });
    browser = await chromium.connect(browserServer.wsEndpoint(), { timeout: 30_000 });
    page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
    page.setDefaultTimeout(UI_WAIT_MS);
    page.setDefaultNavigationTimeout(UI_WAIT_MS);
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  });

  after(async () => {
    await closeHost(host);
    if (browser) await within(browser.close(), CLOSE_MS);
    if (browserServer && !(await within(browserServer.close(), CLOSE_MS))) await within(browserServer.kill(), CLOSE_MS);
    await stopGateway(gateway);
  });

  it('the route default sends the approval to the operator, then the desk\'s own question; both answered in the console; the host gets the full result', async () => {
    assert.ok(gateway);
    assert.equal(TEST_CONFIG_DEFAULTS.questions.route, 'host', 'the harness default that `questions: {}` replaces');
    await page.goto(`${new URL(gateway.url).origin}/console`);
    await page.getByLabel('Operator token').fill(TOKEN);
    await page.getByLabel('Your name').fill(OPERATOR);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#live[data-status="live"]').waitFor();

    host = await connectSdkHttp(gateway.url, { sampling: {} }, {
      sample: (request) => {
        samples.push(request);
        return sampled(request);
      },
    });
    const knownRuns = await runIds(api);
    const call = deadline(
      host.client.callTool({ name: 'safe_restart', arguments: { incident: INCIDENT } }, { timeout: 60_000 }),
      60_000,
      'safe_restart',
    ) as Promise<CallToolResult>;
    // Do not leave the rejection unhandled while the page is being driven.
    call.catch(() => undefined);

    /**
     * Waits for the open card asking `message` under `title`, fills confirm + ticket, accepts, and waits for the card (found
     * again by its question id: a settled card no longer shows the message) to say who settled it. Returns the question id.
     */
    async function answerInConsole(title: string, message: string, ticket: string): Promise<string> {
      const asking = page.locator('#inbox-list article.question').filter({ hasText: message });
      await asking.waitFor();
      const questionId = await asking.getAttribute('data-question-id');
      assert.ok(questionId, 'the card names its question');
      const card = page.locator(`#inbox-list article.question[data-question-id="${questionId}"]`);
      assert.ok(await card.getByRole('heading', { name: title }).isVisible(), `the card is titled ${title}`);
      const confirm = card.getByRole('checkbox', { name: /^confirm\b/ });
      const field = card.getByRole('textbox', { name: /^ticket\b/ });
      assert.equal(await confirm.isChecked(), false);
      await confirm.check();
      await field.fill(ticket);
      await card.getByRole('button', { name: 'Accept' }).click();
      await card.getByText(`Settled: answered by operator ${OPERATOR}.`).waitFor();
      return questionId;
    }

    const approvalId = await answerInConsole('Elicitation from composite · safe_restart', APPROVAL_MESSAGE, 'CHG-7001');
    const deskId = await answerInConsole('Elicitation from desk · restart_service', DESK_MESSAGE, 'CHG-7002');

    const result = await call;
    assert.notEqual(result.isError, true, resultText(result));
    assert.deepEqual(result.structuredContent, {
      service: 'payments-api',
      ticket: 'CHG-7001',
      restart: 'RESTARTED payments-api under CHG-7002',
      summary: `Summary of ${INCIDENT} (by ${MODEL}):\n${SAMPLED}`,
    }, 'the approval\'s ticket from the first answer, the restart under the second');
    assert.equal(samples.length, 1, 'the host that can sample was asked for the summary');
    const toHost = host.wire.filter((entry) => entry.direction === 'gateway->host').map((entry) => entry.message.method);
    assert.ok(!toHost.includes('elicitation/create'), `the host was never asked a question: ${JSON.stringify(toHost)}`);

    const summary = await awaitFinishedRun(api, knownRuns);
    assert.equal(summary.state, 'completed');
    runId = summary.id;
    const run = await getJson<RunRecord>(api, `/api/runs/${encodeURIComponent(runId)}`);
    const approve = run.steps.find((step) => step.id === 'approve');
    assert.equal(approve?.outcome, 'accept');
    assert.deepEqual(approve?.answer, { confirm: true, ticket: 'CHG-7001' });
    assert.equal(approve?.questionId, approvalId, 'the run\'s approval is the question answered in the console');
    const question = await getJson<QuestionWithRun>(api, `/api/questions/${encodeURIComponent(approvalId)}`);
    assert.deepEqual(question.question.answeredBy, { kind: 'operator', name: OPERATOR });
    assert.equal(question.question.audience, 'operator');
    assert.equal(question.question.route, 'host-then-operator', 'the gateway\'s default route');
    assert.equal(question.runId, runId);
    assert.equal(question.runStepId, 'approve');
    const desk = await getJson<QuestionWithRun>(api, `/api/questions/${encodeURIComponent(deskId)}`);
    assert.deepEqual([desk.question.upstream, desk.question.tool, desk.question.audience], ['desk', 'restart_service', 'operator']);
    assert.deepEqual(desk.question.answer, { action: 'accept', content: { confirm: true, ticket: 'CHG-7002' } });
    assert.deepEqual(desk.question.answeredBy, { kind: 'operator', name: OPERATOR });
  });

  it('the Runs view lists the run and opens it with its four steps, the approval\'s outcome, answer and question', async () => {
    assert.ok(runId, 'the run of the previous test');
    await page.getByRole('link', { name: 'Runs', exact: true }).click();
    await page.locator('#runs-status').getByText('1 run', { exact: true }).waitFor();
    const row = page.locator(`#runs-results tr[data-run-id="${runId}"]`);
    assert.deepEqual((await row.locator('td').allTextContents()).slice(1, 3), ['safe_restart', 'completed']);
    assert.equal((await row.locator('td').allTextContents())[4], '4 steps: 4 completed');

    await row.getByRole('link', { name: 'safe_restart' }).click();
    await page.getByRole('heading', { name: 'Run of safe_restart' }).waitFor();
    const sections = page.locator('#run section.step');
    assert.deepEqual(await sections.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-step-id'))), STEP_IDS);
    for (const id of STEP_IDS) {
      assert.equal(await page.locator(`#run section.step[data-step-id="${id}"]`).getAttribute('class'), 'step step-completed', `step ${id} is completed`);
    }
    const approve = page.getByRole('region', { name: /^Step approve/ });
    const facts = Object.fromEntries(
      await approve.locator('dl.facts-list dt').evaluateAll((terms) => terms.map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? ''])),
    ) as Record<string, string>;
    assert.equal(facts.Kind, 'elicit');
    assert.equal(facts.Outcome, 'accept');
    assert.ok(facts.Question, `the approval links to its question: ${JSON.stringify(facts)}`);
    assert.ok(await approve.getByText('"ticket": "CHG-7001"').first().isVisible(), 'the answer the operator gave');
    assert.ok(await page.getByRole('region', { name: /^Step restart/ }).getByText('RESTARTED payments-api under CHG-7002').first().isVisible(), 'the restart\'s output');
  });

  it('logged no error on the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});

describe('safe_restart definitions that cannot work: `switchboard serve` refuses to start', { timeout: 60_000 }, () => {
  let dir: string | undefined;
  let example: { steps: { id: string; dependsOn?: string[]; tool?: string }[] };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-e2e-composites-'));
    example = (parse(await readFile(EXAMPLE, 'utf8')) as { safe_restart: typeof example }).safe_restart;
    assert.equal(example.steps[2]?.id, 'restart', 'the example\'s third step is the restart');
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Serves a config whose composites file (relative to it) is the example with `change` applied to its restart step. */
  async function serveWith(name: string, change: (restart: { dependsOn?: string[]; tool?: string }) => void) {
    assert.ok(dir);
    const steps = structuredClone(example.steps);
    const restart = steps[2];
    assert.ok(restart);
    change(restart);
    await writeFile(join(dir, `${name}.composites.yaml`), stringify({ safe_restart: { ...example, steps } }));
    const config = join(dir, `${name}.switchboard.yaml`);
    await writeFile(config, stringify({ ...TEST_CONFIG_DEFAULTS, upstreams: { desk: incidentDeskStdio() }, composites: `${name}.composites.yaml` }));
    return runToExit({ command: process.execPath, args: [SWITCHBOARD_BIN, 'serve', '--config', config, '--listen', '127.0.0.1:0'], cwd: REPO_ROOT, env: gatewayEnv(), timeoutMs: 20_000 });
  }

  it('a step that depends on an unknown step: exits non-zero naming the composite and the step; never listens', async () => {
    const exited = await serveWith('unknown-step', (restart) => (restart.dependsOn = ['approval']));
    const output = `${exited.stdout}${exited.stderr}`;
    assert.notEqual(exited.code, 0, output);
    assert.notEqual(exited.code, 'timeout', `it exits on its own: ${output}`);
    assert.match(output, /composites\.safe_restart\.steps\[2\] \(restart\): dependsOn names unknown step 'approval'/, output);
    assert.doesNotMatch(output, /listening on/, 'nothing started');
  });

  it('a tool step naming a tool the desk does not have: exits non-zero naming composite, step and tool once the desk is up; never listens', async () => {
    const exited = await serveWith('unknown-tool', (restart) => (restart.tool = 'desk.no_such_tool'));
    const output = `${exited.stdout}${exited.stderr}`;
    assert.notEqual(exited.code, 0, output);
    assert.notEqual(exited.code, 'timeout', `it exits on its own: ${output}`);
    assert.match(output, /composites\.safe_restart\.steps\[2\] \(restart\): upstream 'desk' has no tool 'no_such_tool'/, output);
    assert.doesNotMatch(output, /listening on/, 'nothing started');
  });
});
