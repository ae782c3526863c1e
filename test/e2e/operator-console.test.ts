/** @module e2e/operator-console.test: a question no host can take (a 2025-06-18 host without elicitation calls restart_service), answered by an operator in the web console in Chromium, through the real `switchboard serve`. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';

import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import type { MessageReader } from './harness/sse-reader.js';
import { answers, isRequest, toolText } from './harness/tool-results.js';
import { incidentDeskStdio } from './harness/upstreams.js';

const CHROMIUM = '/usr/bin/chromium';
const missing = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the console end-to-end test`;
const TOKEN = 'e2e-console-token-4b8d1e6a';
const OPERATOR = 'Ada';
const CARD_TITLE = 'Elicitation from desk · restart_service';
/** Bound for every wait on the page (playwright's own default is 30 s). */
const UI_WAIT_MS = 5_000;
const CALL_ID = 7;

describe('operator console: a question the host cannot take, answered in the browser', { skip: missing, timeout: 30_000 }, () => {
  let gateway: RunningGateway | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let host: RawHost | undefined;
  let call: MessageReader;
  const pageErrors: string[] = [];

  before(async () => {
    gateway = await startGateway({
      upstreams: { desk: incidentDeskStdio() },
      questions: { route: 'host-then-operator' },
      console: { token: TOKEN },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.setDefaultTimeout(UI_WAIT_MS);
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  });

  after(async () => {
    await host?.close();
    await browser?.close();
    await gateway?.stop();
  });

  const base = (): string => new URL(gateway?.url ?? '').origin;

  it('refuses a wrong token: the sign-in form says so and shows nothing else', async () => {
    await page.goto(`${base()}/console`);
    await page.getByLabel('Operator token').fill('not-the-operator-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The token was refused. Sign in again.').waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Sign in' }).isVisible(), true);
    assert.equal(await page.getByRole('navigation', { name: 'Views' }).isVisible(), false, 'no inbox or history without the token');
    assert.equal(await page.locator('#session').isVisible(), false);
  });

  it('signs in, then shows the restart question of a host that declared no elicitation, as a form from its schema', async () => {
    await page.getByLabel('Operator token').fill(TOKEN);
    await page.getByLabel('Your name').fill(OPERATOR);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#live[data-status="live"]').waitFor();
    await page.getByText('No open questions.').waitFor();
    assert.equal(await page.locator('#who').textContent(), `Signed in as ${OPERATOR}`);

    host = await RawHost.connect(gateway?.url ?? '', { protocolVersion: '2025-06-18', capabilities: {} });
    assert.equal(host.protocolVersion, '2025-06-18');
    call = await host.callTool(CALL_ID, 'restart_service', { service: 'payments-api' });

    const card = page.getByRole('article', { name: CARD_TITLE });
    await card.waitFor();
    assert.ok(await card.getByText('Restart payments-api? This drops in-flight requests.').isVisible());
    assert.equal(await page.getByRole('link', { name: /Inbox/ }).textContent(), 'Inbox 1 open');

    const confirm = card.getByRole('checkbox', { name: /^confirm\b/ });
    const ticket = card.getByRole('textbox', { name: /^ticket\b/ });
    assert.equal(await confirm.isChecked(), false, 'a boolean without a default starts unticked');
    assert.equal(await ticket.inputValue(), '');
    assert.equal(await ticket.getAttribute('required'), '', 'the ticket input carries `required`');
    for (const name of ['confirm', 'ticket']) {
      const label = card.locator('label').filter({ hasText: new RegExp(`^${name}\\b`) });
      assert.equal(await label.locator('.required[title="required"]').count(), 1, `${name} is marked required`);
    }
    assert.ok(await card.getByText('Tick to approve the restart').isVisible(), 'descriptions are shown as help');
    assert.ok(await card.getByText('Change ticket number, e.g. CHG-2291').isVisible());
    assert.equal(await card.getByRole('button', { name: 'Accept' }).isEnabled(), true);

    // The question went to the operator, not to the host that cannot elicit.
    assert.deepEqual(call.seen.filter(isRequest), [], 'the host received no question');
    assert.equal(call.ended, false, 'the host call is still waiting for the approval');

    await confirm.check();
    await ticket.fill('CHG-2291');
    // CONSOLE_SCREENSHOT=docs/images/console.png makes the README's picture: the question filled in, not yet answered.
    const screenshot = process.env.CONSOLE_SCREENSHOT;
    if (screenshot) await page.screenshot({ path: screenshot, fullPage: false });
  });

  it('sends the answer on Accept: the host call ends with the tool result, and the card says who answered', async () => {
    const card = page.getByRole('article', { name: CARD_TITLE });
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText(`Settled: answered by operator ${OPERATOR}.`).waitFor();

    const result = await call.until(answers(CALL_ID));
    assert.equal(toolText(result), 'RESTARTED payments-api under CHG-2291');
    assert.equal(result.result?.isError, false);
    assert.deepEqual(call.seen.filter(isRequest), [], 'the host never saw the question');
    assert.equal(await page.locator('#inbox-count').textContent(), '', 'nothing is open any more');
  });

  it('shows the question as answered in the history, with who answered, and its full record', async () => {
    await page.getByRole('link', { name: 'History' }).click();
    await page.locator('#history-status').getByText('1 question').waitFor();
    const row = page.getByRole('row', { name: /Restart payments-api\?/ });
    assert.deepEqual(
      (await row.getByRole('cell').allTextContents()).slice(1),
      ['Elicitation: Restart payments-api? This drops in-flight requests.', 'desk', 'restart_service', 'answered', `operator ${OPERATOR}`],
    );

    await row.getByRole('link').click();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    const fact = async (term: string): Promise<string | null> => page.locator('#detail dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]').textContent();
    assert.equal(await fact('State'), 'answered');
    assert.equal(await fact('Answered by'), `operator ${OPERATOR}`);
    assert.equal(await fact('Route'), 'host-then-operator');
    assert.equal(await fact('Host revision'), '2025-06-18');
    assert.match((await fact('Audience')) ?? '', /^operator \(.+\)$/, 'the record says why an operator was asked');
    assert.ok(await page.getByText('"ticket": "CHG-2291"').isVisible(), 'the answer as sent');
    const trail = await page.locator('#detail table.audit tbody tr').evaluateAll((rows) => rows.map((tr) => [tr.children[1]?.textContent, tr.children[2]?.textContent]));
    assert.deepEqual(trail.at(-1), [`operator:${OPERATOR}`, 'answered']);
  });

  it('logged no error on the page besides the refused token', () => {
    const unexpected = pageErrors.filter((text) => !/Failed to load resource: the server responded with a status of 401/.test(text));
    assert.deepEqual(unexpected, []);
  });
});
