/**
 * @module The console in a real Chromium (Debian's /usr/bin/chromium through playwright-core), served over a real
 * socket with a fake desk: sign in, a question arrives live, the form is filled and answered, errors show by the form.
 */

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';

import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import { startHttpServer } from '../edges/http/node-server.js';
import type { RunningHttpServer } from '../edges/http/node-server.js';
import { FakeConfigControl } from '../edges/operator/testing/fake-config.js';
import { createOperatorRoutes } from '../edges/operator/operator-routes.js';
import type { OperatorRoutes } from '../edges/operator/operator-routes.js';
import { FakeOperatorDesk } from '../edges/operator/testing/fake-desk.js';

const CHROMIUM = '/usr/bin/chromium';
const TOKEN = 'console-test-token-7f3a9c';
const missing = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the browser test`;

const RESTART_FORM = {
  mode: 'form',
  message: 'Restart payments-api? Pick the regions and give the change ticket.',
  requestedSchema: {
    type: 'object',
    properties: {
      ticket: { type: 'string', title: 'Change ticket', description: 'The approved change, e.g. CHG-1234.', minLength: 5 },
      regions: { type: 'array', title: 'Regions', items: { anyOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'Americas' }, { const: 'ap', title: 'Asia-Pacific' }] }, minItems: 1, default: ['eu'] },
      replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 9, default: 2 },
      confirm: { type: 'boolean', title: 'Drain connections first', default: true },
      env: { type: 'string', title: 'Environment', enum: ['prod', 'staging'], enumNames: ['Production', 'Staging'], default: 'staging' },
      notes: { type: 'string', title: 'Notes' },
    },
    required: ['ticket', 'regions', 'confirm'],
  },
};

describe('operator console in Chromium', { skip: missing, timeout: 90_000 }, () => {
  const desk = new FakeOperatorDesk();
  const config = new FakeConfigControl();
  let routes: OperatorRoutes;
  let server: RunningHttpServer;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  const foreignRequests: string[] = [];

  before(async () => {
    routes = createOperatorRoutes({ desk, token: TOKEN, config });
    server = await startHttpServer({ handle: async (req) => (await routes.handle(req)) ?? new Response('not here', { status: 404 }) }, { host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) foreignRequests.push(request.url());
    });
  });

  after(async () => {
    await browser?.close();
    routes?.close();
    await server?.close();
  });

  it('signs in with the token, then shows a question that arrives after the page loaded', async () => {
    await page.goto(`${server.url}/console`);
    await page.getByLabel('Operator token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The token was refused. Sign in again.').waitFor();

    await page.getByLabel('Operator token').fill(TOKEN);
    await page.getByLabel('Your name').fill('Grace');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#live[data-status="live"]').waitFor();
    await page.getByText('No open questions.').waitFor();
    assert.equal(await page.evaluate(() => document.cookie), '', 'no cookie is set');
    await page.locator('#config-version:not([hidden])').waitFor();
    assert.match(String(await page.locator('#config-version').textContent()), /^Config 000000000001 · loaded /, 'the header shows the config version and when it was loaded');

    desk.add({ params: RESTART_FORM, origin: { upstream: 'desk', tool: 'restart_service' } });
    await page.getByRole('heading', { name: 'Elicitation from desk · restart_service' }).waitFor();
    assert.equal(await page.getByText('No open questions.').isVisible(), false);
    assert.equal(await page.locator('#announce').textContent(), 'New question: Elicitation from desk · restart_service');
    assert.equal(await page.getByRole('link', { name: /Inbox/ }).textContent(), 'Inbox 1 open');
  });

  it('renders the form from the schema: defaults, required marks, help text, multi-select checkboxes', async () => {
    const card = page.getByRole('article', { name: 'Elicitation from desk · restart_service' });
    assert.equal(await card.getByLabel('Change ticket').getAttribute('required'), '');
    assert.equal(await card.getByLabel('Change ticket').getAttribute('minlength'), '5');
    assert.ok(await card.getByText('The approved change, e.g. CHG-1234.').isVisible());
    assert.equal(await card.getByRole('checkbox', { name: 'Europe' }).isChecked(), true);
    assert.equal(await card.getByRole('checkbox', { name: 'Americas' }).isChecked(), false);
    assert.equal(await card.getByRole('group', { name: /Regions/ }).count(), 1);
    assert.equal(await card.getByLabel('Replicas').inputValue(), '2');
    assert.equal(await card.getByLabel('Replicas').getAttribute('type'), 'number');
    assert.equal(await card.getByLabel('Drain connections first').isChecked(), true);
    assert.equal(await card.getByLabel('Environment').inputValue(), 'staging');
    assert.deepEqual(await card.getByLabel('Environment').locator('option').allTextContents(), ['— none —', 'Production', 'Staging']);
    assert.equal(await card.getByLabel('Notes').getAttribute('required'), null);
  });

  it('shows a missing required field and the desk\'s 400 next to the form, without settling the question', async () => {
    const card = page.getByRole('article', { name: 'Elicitation from desk · restart_service' });
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText('Change ticket is required').first().waitFor();
    assert.equal(await card.getByLabel('Change ticket').getAttribute('aria-invalid'), 'true');
    assert.equal(desk.answers.length, 0, 'nothing is sent while the form is incomplete');

    desk.validate = (_question, answer) => (answer.content?.ticket === 'CHG-0000' ? { reason: 'ticket CHG-0000 is not an approved change', field: 'content.ticket' } : undefined);
    await card.getByLabel('Change ticket').fill('CHG-0000');
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByRole('alert').filter({ hasText: 'ticket CHG-0000 is not an approved change (content.ticket)' }).waitFor();
    assert.equal(await card.getByLabel('Change ticket').getAttribute('aria-invalid'), 'true');
    assert.equal(desk.answers.length, 1);
    desk.validate = undefined;
  });

  it('sends exactly the content the form holds: parsed numbers, booleans, the multi-select array, no empty optional field', async () => {
    desk.add({
      method: 'sampling/createMessage',
      params: { systemPrompt: 'You are the on-call assistant.', messages: [{ role: 'user', content: { type: 'text', text: 'Summarise incident INC-7 in one line.' } }, { role: 'user', content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } }], maxTokens: 200 },
      origin: { upstream: 'desk', tool: 'summarize_incident' },
    });
    await page.getByRole('heading', { name: 'Sampling from desk · summarize_incident' }).waitFor();
    const card = page.getByRole('article', { name: 'Elicitation from desk · restart_service' });
    await card.getByLabel('Change ticket').fill('CHG-2291');
    assert.equal(await card.getByLabel('Change ticket').getAttribute('aria-invalid'), null, 'an edit clears the stale message');
    assert.equal(await card.getByRole('alert').filter({ hasText: 'CHG-0000' }).count(), 0);
    await card.getByRole('checkbox', { name: 'Americas' }).check();
    if (process.env.CONSOLE_SCREENSHOT) await page.screenshot({ path: process.env.CONSOLE_SCREENSHOT, fullPage: true });

    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText('Settled: answered by operator Grace.').waitFor();
    const [, taken] = desk.answers;
    assert.deepEqual(taken, {
      id: 'q-1',
      answer: { action: 'accept', content: { ticket: 'CHG-2291', regions: ['eu', 'us'], replicas: 2, confirm: true, env: 'staging' } },
      operator: 'Grace',
    });
  });

  it('shows a sampling request\'s messages, and a 409 when the host answered first', async () => {
    const card = page.getByRole('article', { name: 'Sampling from desk · summarize_incident' });
    assert.ok(await card.getByText('Summarise incident INC-7 in one line.').isVisible());
    assert.ok(await card.getByText('[image image/png ~1 KB]').isVisible());
    desk.settle('q-2', 'answered', { kind: 'host', sessionId: 'host-7' }, true);
    await card.getByLabel('Your reply').fill('INC-7: payments-api restarted, error rate back to normal.');
    await card.getByRole('button', { name: 'Send reply' }).click();
    await card.getByText('Settled: answered by host host-7.').waitFor();
    assert.deepEqual(desk.answers.at(-1)?.answer, {
      action: 'accept',
      result: { role: 'assistant', content: { type: 'text', text: 'INC-7: payments-api restarted, error rate back to normal.' }, model: 'operator', stopReason: 'endTurn' },
    });
  });

  it('settles a card live when someone else answers, and declines from the card', async () => {
    const url = desk.add({ params: { mode: 'url', message: 'Sign in to the vault.', url: 'https://vault.example/login', elicitationId: 'e1' }, origin: { upstream: 'vault' } });
    const other = desk.add({ origin: { upstream: 'desk', tool: 'restart_service' } });
    const urlCard = page.getByRole('article', { name: 'Elicitation (URL) from vault' });
    await urlCard.getByRole('link', { name: 'https://vault.example/login' }).waitFor();
    await urlCard.getByRole('button', { name: 'Decline' }).click();
    await urlCard.getByText('Settled: declined by operator Grace.').waitFor();
    assert.deepEqual(desk.answers.at(-1), { id: url.id, answer: { action: 'decline' }, operator: 'Grace' });
    await page.locator(`[data-question-id="${other.id}"]`).waitFor();
    desk.settle(other.id, 'expired');
    await page.locator(`[data-question-id="${other.id}"]`).getByText('Settled: expired by the gateway (test).').waitFor();
  });

  it('shows a question routed to its host only without a form: the desk would refuse any operator answer', async () => {
    const hostOnly = desk.add({ route: 'host-then-operator', audience: 'host', params: { message: 'Deploy build 42 to staging?', requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } } } });
    const card = page.locator(`[data-question-id="${hostOnly.id}"]`);
    await card.getByText('Deploy build 42 to staging?').waitFor();
    assert.ok(await card.getByText('Routed to its host only (route: host-then-operator): the host answers it, not an operator.').isVisible());
    assert.equal(await card.locator('form, input, button').count(), 0, 'no form, no buttons');
    desk.settle(hostOnly.id, 'answered', { kind: 'host', sessionId: 'host-9' });
    await card.getByText('Settled: answered by host host-9.').waitFor();
  });

  it('filters the history and shows the full record with its audit trail', async () => {
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByLabel('Answered by').selectOption('operator');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('2 questions').waitFor();
    assert.deepEqual(desk.filters.at(-1), { answeredBy: 'operator', limit: 50 });
    await page.getByRole('link', { name: /Elicitation: Restart payments-api/ }).click();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    assert.ok(await page.getByRole('cell', { name: 'operator:Grace' }).first().isVisible());
    assert.ok(await page.getByRole('cell', { name: 'rejected-answer' }).isVisible());
    assert.ok(await page.getByText('"ticket": "CHG-2291"').first().isVisible());
  });

  it('shows each webhook target\'s delivery status on the question\'s page', async () => {
    const paged = desk.add({ origin: { upstream: 'desk', tool: 'restart_service' } });
    desk.audit(paged.id, 'notify-failed', { target: 'pager', event: 'question.waiting', eventId: 'evt_1', attempt: 1, status: 500, error: 'HTTP 500: down', retryInMs: 800 });
    desk.audit(paged.id, 'notify-sent', { target: 'pager', event: 'question.waiting', eventId: 'evt_1', attempt: 2, status: 200 });
    desk.audit(paged.id, 'notify-failed', { target: 'slack', event: 'question.waiting', eventId: 'evt_1', attempt: 1, status: 404, error: 'HTTP 404: no_service' });
    await page.goto(`${server.url}/console#question/${paged.id}`);
    const table = page.getByRole('table', { name: 'Webhook deliveries' });
    await table.waitFor();
    const rows = await table.locator('tbody tr').allInnerTexts();
    assert.deepEqual(rows.map((row) => row.split('\t').slice(0, 6)), [
      ['pager', 'question.waiting', 'sent', '2', '200', ''],
      ['slack', 'question.waiting', 'failed', '1', '404', 'HTTP 404: no_service'],
    ]);
  });

  it('loaded nothing from elsewhere and broke no rule of its Content-Security-Policy', async () => {
    assert.deepEqual(foreignRequests, []);
    // Chromium reports every non-2xx fetch on the console; the 401, 400 and 409 above are the expected ones.
    const unexpected = consoleErrors.filter((text) => !/Failed to load resource: the server responded with a status of (400|401|409)/.test(text));
    assert.deepEqual(unexpected, []);
  });
});
