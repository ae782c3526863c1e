/**
 * @module The console's Runs view in a real Chromium (Debian's /usr/bin/chromium through playwright-core), served over a
 * real socket with runs seeded in a memory run store: the list, its filters, a run's steps, and the links between a
 * step and the question it asked. Every wait is bounded, and the browser and server are closed with a deadline.
 */

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';

import type { Browser, BrowserServer, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import type { RunRecord } from '../composite/run-record.js';
import { startHttpServer } from '../edges/http/node-server.js';
import type { RunningHttpServer } from '../edges/http/node-server.js';
import { createOperatorRoutes } from '../edges/operator/operator-routes.js';
import type { OperatorRoutes } from '../edges/operator/operator-routes.js';
import { FakeOperatorDesk } from '../edges/operator/testing/fake-desk.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { within } from '../core/testing/deadlines.js';

const CHROMIUM = '/usr/bin/chromium';
const TOKEN = 'console-runs-test-token-51c2e8';
const missing = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the browser test`;
/** Every wait of a page (locators, navigation) gives up after this. */
const WAIT_MS = 10_000;
/** Closing anything gives up after this; the browser is then killed. */
const CLOSE_MS = 4_000;

const T0 = Date.parse('2026-03-01T09:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

describe('operator console in Chromium: composite runs', { skip: missing, timeout: 90_000 }, () => {
  const desk = new FakeOperatorDesk();
  const runs = new MemoryRunStore();
  let routes: OperatorRoutes | undefined;
  let server: RunningHttpServer | undefined;
  let browserServer: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const consoleErrors: string[] = [];
  const foreignRequests: string[] = [];
  let restart: RunRecord;

  before(async () => {
    // The approval question the run's elicit step asked, answered by an operator.
    const approval = desk.add({ params: { mode: 'form', message: 'Restart payments-api for INC-7?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } }, origin: { upstream: 'switchboard', tool: 'safe_restart' } });
    desk.settle(approval.id, 'answered', { kind: 'operator', name: 'Grace' });
    restart = {
      id: 'run-safe-restart-1',
      composite: 'safe_restart',
      hostSessionId: 'host-1',
      principal: 'Ada <ada> (https://id.example)',
      state: 'completed',
      input: { incident: 'INC-7' },
      steps: [
        { id: 'lookup', kind: 'tool', state: 'completed', startedAt: at(0), finishedAt: at(1), attempts: 1, output: { service: 'payments-api', severity: 2 } },
        { id: 'approve', kind: 'elicit', state: 'completed', startedAt: at(1), finishedAt: at(30), outcome: 'accept', answer: { confirm: true, ticket: 'CHG-2291' }, questionId: approval.id, output: { confirm: true, ticket: 'CHG-2291' } },
        { id: 'restart', kind: 'tool', state: 'completed', startedAt: at(30), finishedAt: at(42), attempts: 2, output: 'RESTARTED payments-api under CHG-2291' },
        { id: 'notify', kind: 'tool', state: 'skipped', reason: 'condition was false: input.notify' },
      ],
      summary: 'RESTARTED payments-api under CHG-2291',
      startedAt: at(0),
      finishedAt: at(42.5),
    };
    await runs.create(restart);
    await runs.create({
      id: 'run-rollback-1',
      composite: 'rollback',
      hostSessionId: 'host-2',
      state: 'failed',
      input: { release: 'r-41' },
      steps: [{ id: 'revert', kind: 'tool', state: 'failed', startedAt: at(60), finishedAt: at(63), attempts: 3, reason: 'upstream deploy: connection refused' }],
      summary: 'step revert failed after 3 attempts: connection refused',
      startedAt: at(60),
      finishedAt: at(63),
    });

    routes = createOperatorRoutes({ desk, runs, token: TOKEN });
    const operatorRoutes = routes;
    server = await startHttpServer({ handle: async (req) => (await operatorRoutes.handle(req)) ?? new Response('not here', { status: 404 }) }, { host: '127.0.0.1', port: 0 });
    const serverUrl = server.url;
    browserServer = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'], timeout: 30_000 });
    browser = await chromium.connect(browserServer.wsEndpoint(), { timeout: 30_000 });
    page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
    page.setDefaultTimeout(WAIT_MS);
    page.setDefaultNavigationTimeout(WAIT_MS);
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(serverUrl)) foreignRequests.push(request.url());
    });
  });

  after(async () => {
    if (browser && !(await within(browser.close(), CLOSE_MS))) browser = undefined;
    if (browserServer && !(await within(browserServer.close(), CLOSE_MS))) await within(browserServer.kill(), CLOSE_MS);
    routes?.close();
    if (server) await within(server.close(), CLOSE_MS);
  });

  it('signs in and lists the runs newest first: composite, state, duration, steps', async () => {
    assert.ok(server);
    await page.goto(`${server.url}/console`);
    await page.getByLabel('Operator token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#live[data-status="live"]').waitFor();

    await page.getByRole('link', { name: 'Runs', exact: true }).click();
    await page.getByText('2 runs').waitFor();
    const rows = page.locator('#runs-results tbody tr');
    assert.equal(await rows.count(), 2);
    const first = rows.nth(0);
    const second = rows.nth(1);
    assert.equal(await first.getAttribute('data-run-id'), 'run-rollback-1', 'newest first');
    const cells = await second.locator('td').allTextContents();
    assert.match(cells[0] ?? '', /2026/, 'the start, in local time');
    assert.deepEqual(cells.slice(1), ['safe_restart', 'completed', '42.5 s', '4 steps: 3 completed, 1 skipped', 'RESTARTED payments-api under CHG-2291']);
    assert.deepEqual((await first.locator('td').allTextContents()).slice(1, 5), ['rollback', 'failed', '3 s', '1 step: 1 failed']);
  });

  it('filters by state, and reads the list again each time the view is shown', async () => {
    await page.getByLabel('Run state').selectOption('failed');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('1 run', { exact: true }).waitFor();
    assert.equal(await page.locator('#runs-results tbody tr').getAttribute('data-run-id'), 'run-rollback-1');
    await page.getByLabel('Run state').selectOption('');

    await runs.create({ id: 'run-live-1', composite: 'safe_restart', hostSessionId: 'host-3', state: 'running', input: {}, steps: [{ id: 'lookup', kind: 'tool', state: 'running', startedAt: at(120) }], startedAt: at(120) });
    await page.getByRole('link', { name: /Inbox/ }).click();
    await page.getByRole('link', { name: 'Runs', exact: true }).click();
    await page.getByText('3 runs').waitFor();
    const live = page.locator('#runs-results tr[data-run-id="run-live-1"]');
    assert.deepEqual((await live.locator('td').allTextContents()).slice(1, 5), ['safe_restart', 'running', 'running', '1 step: 1 running']);
  });

  it('opens a run with every step: kind, state, times, attempts, outcome, answer, reason, output', async () => {
    await page.locator('#runs-results tr[data-run-id="run-safe-restart-1"]').getByRole('link', { name: 'safe_restart' }).click();
    await page.getByRole('heading', { name: 'Run of safe_restart' }).waitFor();
    const run = page.locator('#run');
    assert.ok(await run.getByText('Duration').isVisible());
    assert.ok(await run.getByText('Ada <ada> (https://id.example)').isVisible(), 'who called it');
    assert.ok(await run.getByText('{\n  "incident": "INC-7"\n}').isVisible(), 'the input');
    assert.deepEqual(await run.locator('section.step').evaluateAll((sections) => sections.map((section) => section.getAttribute('data-step-id'))), ['lookup', 'approve', 'restart', 'notify']);

    const approve = page.getByRole('region', { name: /^Step approve/ });
    const facts = async (region: typeof approve) =>
      Object.fromEntries(
        await region.locator('dl.facts-list dt').evaluateAll((terms) => terms.map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? ''])),
      ) as Record<string, string>;
    const approveFacts = await facts(approve);
    assert.equal(approveFacts.Kind, 'elicit');
    assert.equal(approveFacts.State, 'completed');
    assert.equal(approveFacts.Outcome, 'accept');
    assert.equal(approveFacts.Took, '29 s');
    assert.match(approveFacts.Started ?? '', /ago/);
    assert.equal(approveFacts.Question, 'q-1');
    if (process.env.RUNS_SCREENSHOT) await page.screenshot({ path: process.env.RUNS_SCREENSHOT, fullPage: true });
    assert.ok(await approve.getByRole('heading', { name: 'Answer' }).isVisible());
    assert.ok(await approve.getByText('"ticket": "CHG-2291"').first().isVisible());

    const restartFacts = await facts(page.getByRole('region', { name: /^Step restart/ }));
    assert.equal(restartFacts.Attempts, '2');
    assert.ok(await page.getByRole('region', { name: /^Step restart/ }).getByText('"RESTARTED payments-api under CHG-2291"').isVisible(), 'the output');

    const notifyFacts = await facts(page.getByRole('region', { name: /^Step notify/ }));
    assert.equal(notifyFacts.State, 'skipped');
    assert.equal(notifyFacts.Reason, 'condition was false: input.notify');
    assert.equal(notifyFacts.Started, undefined, 'a step that never started has no times');
  });

  it('links a step to the question it asked, and the question back to its run', async () => {
    await page.getByRole('region', { name: /^Step approve/ }).getByRole('link', { name: 'q-1' }).click();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    assert.ok(await page.getByText('Restart payments-api for INC-7?').first().isVisible());
    await page.getByRole('link', { name: 'run-safe-restart-1 (step approve)' }).click();
    await page.getByRole('heading', { name: 'Run of safe_restart' }).waitFor();
    await page.getByRole('link', { name: '← Runs' }).click();
    await page.getByText('3 runs').waitFor();
  });

  it('shows an unknown run\'s 404 in place, loaded nothing from elsewhere and broke no rule of its CSP', async () => {
    assert.ok(server);
    await page.goto(`${server.url}/console#run/run-nobody`);
    await page.getByRole('alert').filter({ hasText: 'No run "run-nobody"' }).waitFor();
    assert.deepEqual(foreignRequests, []);
    const unexpected = consoleErrors.filter((text) => !/Failed to load resource: the server responded with a status of 404/.test(text));
    assert.deepEqual(unexpected, []);
  });
});
