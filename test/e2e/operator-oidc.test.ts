/**
 * @module e2e/operator-oidc.test: operators signed in, each one themselves, on a real `switchboard serve` and a real
 * OpenID provider (oidc-provider): in Chromium, Ada (group desk-ops) signs in through the provider's login page, sees
 * only the question of upstream `desk` (not billing's), approves it (four-eyes: 1 of 2), Ben signs in in another
 * browser context and approves too, the question settles and the host's call gets the result; the audit names both by
 * subject. Over REST: Ben's access token works, one of another audience is 401; the shared token is accepted from
 * loopback with `auth.operators.token: true` and refused with it off.
 *
 * The browser reaches the gateway as http://localhost:PORT and the provider is http://127.0.0.1:PORT: two sites, so
 * the provider's redirect back to the callback is a cross-site navigation, as in production (SameSite cookies).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { type OidcFixture, startOidcProvider } from './harness/oidc-provider.js';
import { freePort } from './harness/ports.js';
import { RawHost } from './harness/raw-host.js';
import type { MessageReader } from './harness/sse-reader.js';
import { answers, isRequest, toolText } from './harness/tool-results.js';
import { incidentDeskStdio } from './harness/upstreams.js';

const CHROMIUM = '/usr/bin/chromium';
const missing = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the console end-to-end test`;
const AUDIENCE = 'https://switchboard.test/api';
const OTHER_AUDIENCE = 'https://other.test/api';
const CLIENT_ID = 'switchboard-console-e2e';
const TOKEN = 'e2e-shared-operator-token-5c1d';
const FOUR_EYES_TOOL = 'desk_restart_service';
const UI_WAIT_MS = 8_000;
const USERS = [
  { subject: 'ada', password: 'ada-pass-1', name: 'Ada Lovelace', groups: ['desk-ops'] },
  { subject: 'ben', password: 'ben-pass-2', name: 'Ben Franklin', groups: ['desk-ops'] },
  { subject: 'cy', password: 'cy-pass-3', name: 'Cy Young', groups: ['billing-ops'] },
];

interface AuditLine {
  actor: string;
  action: string;
  detail?: Record<string, unknown>;
}

describe('operators sign in with OpenID Connect: visibility by group, four-eyes, bearer tokens', { skip: missing, timeout: 90_000 }, () => {
  let provider: OidcFixture | undefined;
  let gateway: RunningGateway | undefined;
  let tokenOffGateway: RunningGateway | undefined;
  let browser: Browser | undefined;
  let host: RawHost | undefined;
  let billingHost: RawHost | undefined;
  let deskCall: MessageReader;
  let billingCall: MessageReader;
  let base: string;
  const pageErrors: string[] = [];

  before(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    provider = await startOidcProvider({
      users: USERS,
      clients: [{ clientId: CLIENT_ID, redirectUris: [`${base}/console/callback`] }],
      resources: [AUDIENCE, OTHER_AUDIENCE],
    });
    const oidc = { issuer: provider.issuer, clientId: CLIENT_ID, audience: AUDIENCE, scopes: ['openid', 'profile', 'groups'], cookieSecret: 'e2e-cookie-secret-0123456789abcdefghij' };
    gateway = await startGateway(
      {
        upstreams: { desk: incidentDeskStdio(), billing: incidentDeskStdio() },
        questions: { route: 'host-then-operator', tools: { [FOUR_EYES_TOOL]: { approvers: 2 } } },
        console: { token: TOKEN },
        auth: { operators: { oidc, token: true } },
        policy: { answerers: [{ groups: ['desk-ops'], upstreams: ['desk'] }, { groups: ['billing-ops'], upstreams: ['billing'] }] },
      },
      { listen: `127.0.0.1:${port}` },
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });

  after(async () => {
    await host?.close();
    await billingHost?.close();
    await browser?.close();
    await gateway?.stop();
    await tokenOffGateway?.stop();
    await provider?.close();
    assert.deepEqual(provider?.serverErrors ?? [], [], 'the provider reported no server error');
  });

  /** A fresh browser context (its own cookies) signed in as `subject` through the provider's own login and consent pages. */
  async function signIn(subject: string): Promise<{ context: BrowserContext; page: Page }> {
    const user = USERS.find((candidate) => candidate.subject === subject);
    assert.ok(user && browser);
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(UI_WAIT_MS);
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    await page.goto(`${base}/console`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === provider?.issuer);
    await page.locator('input[name="login"]').fill(subject);
    await page.locator('input[name="password"]').fill(user.password);
    await page.locator('button[type="submit"]').click();
    // The consent page (first sign-in of this user to this client), then back to the gateway's callback and on.
    await page.waitForURL((url) => url.origin === base || url.pathname.includes('/interaction/'));
    if (new URL(page.url()).origin !== base) await page.locator('button[type="submit"]').click();
    await page.waitForURL(`${base}/console`);
    await page.locator('#live[data-status="live"]').waitFor();
    assert.equal(await page.locator('#who').textContent(), `Signed in as ${user.name} (${subject})`);
    const cookies = await context.cookies(base);
    const session = cookies.find((cookie) => cookie.name === 'switchboard_session');
    assert.ok(session, 'the session cookie is set');
    assert.deepEqual([session.httpOnly, session.sameSite, session.path, session.secure], [true, 'Strict', '/', false], 'HttpOnly, SameSite=Strict, not Secure on loopback');
    return { context, page };
  }

  it('asks two questions no host can take: one of upstream desk (four-eyes), one of upstream billing', async () => {
    host = await RawHost.connect(gateway?.url ?? '', { protocolVersion: '2025-06-18', capabilities: {} });
    deskCall = await host.callTool(7, FOUR_EYES_TOOL, { service: 'payments-api' });
    billingHost = await RawHost.connect(gateway?.url ?? '', { protocolVersion: '2025-06-18', capabilities: {} });
    billingCall = await billingHost.callTool(8, 'billing_restart_service', { service: 'ledger-db' });
    assert.ok(provider);
    const cy = await provider.userToken({ subject: 'cy', resource: AUDIENCE, clientId: CLIENT_ID });
    for (let tries = 0; tries < 50; tries += 1) {
      const listed = (await (await fetch(new URL('/api/questions?state=delivered', gateway?.url), { headers: { authorization: `Bearer ${cy.accessToken}` } })).json()) as { upstream: string }[];
      if (listed.length > 0) {
        assert.deepEqual(listed.map((q) => q.upstream), ['billing'], 'Cy (billing-ops) sees only billing\'s question');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (tries === 49) assert.fail(`billing's question did not arrive: ${JSON.stringify(billingCall.seen)}`);
    }
    // The shared token is taken from loopback (auth.operators.token: true), but it names nobody in policy.answerers.
    const shared = await fetch(new URL('/api/questions?state=delivered', gateway?.url), { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(shared.status, 200, 'the shared token is accepted from loopback');
    assert.deepEqual(await shared.json(), [], 'no answerer rule names the shared token\'s operator');
  });

  it('Ada signs in at the provider, sees only the desk question, and approves it: 1 of 2 approvals, still open', async () => {
    const { context, page } = await signIn('ada');
    const card = page.getByRole('article', { name: `Elicitation from desk · ${FOUR_EYES_TOOL}` });
    await card.waitFor();
    assert.equal(await page.getByRole('article').count(), 1, 'the billing question is not shown to desk-ops');
    assert.equal(await card.locator('.approvals').textContent(), '0 of 2 approvals');
    await card.getByRole('checkbox', { name: /^confirm\b/ }).check();
    await card.getByRole('textbox', { name: /^ticket\b/ }).fill('CHG-7001');
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText('Your approval is recorded: 1 of 2 approvals. Another operator must approve it.').waitFor();
    assert.equal(await card.locator('.approvals').textContent(), '1 of 2 approvals: Ada Lovelace <ada>');
    assert.equal(deskCall.ended, false, 'one approval settles nothing');
    assert.deepEqual(deskCall.seen.filter(isRequest), [], 'the host is never asked a four-eyes question');
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText('You approved this question already. Another operator must approve it.').waitFor();
    await context.close();
  });

  it('Ben signs in in another browser, sees Ada\'s approval, approves: the question settles and the host gets the result', async () => {
    const { context, page } = await signIn('ben');
    const card = page.getByRole('article', { name: `Elicitation from desk · ${FOUR_EYES_TOOL}` });
    await card.waitFor();
    assert.equal(await card.locator('.approvals').textContent(), '1 of 2 approvals: Ada Lovelace <ada>');
    await card.getByRole('checkbox', { name: /^confirm\b/ }).check();
    await card.getByRole('textbox', { name: /^ticket\b/ }).fill('CHG-7002');
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText('Settled: answered by operator Ben Franklin <ben>.').waitFor();
    const result = await deskCall.until(answers(7));
    assert.equal(toolText(result), 'RESTARTED payments-api under CHG-7002', 'the last approval\'s answer reaches the upstream');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    assert.equal((await context.cookies(base)).some((cookie) => cookie.name === 'switchboard_session'), false, 'signing out clears the cookie');
    await context.close();
    assert.deepEqual(pageErrors, []);
  });

  it('REST: Ben\'s access token shows the audit naming both approvers by subject; a token for another audience is 401', async () => {
    assert.ok(provider && gateway);
    const ben = await provider.userToken({ subject: 'ben', resource: AUDIENCE, clientId: CLIENT_ID });
    const headers = { authorization: `Bearer ${ben.accessToken}` };
    const listed = (await (await fetch(new URL('/api/questions', gateway.url), { headers })).json()) as { id: string; upstream: string }[];
    assert.deepEqual(listed.map((q) => q.upstream), ['desk'], 'Ben (desk-ops) sees only desk questions over REST too');
    const detail = (await (await fetch(new URL(`/api/questions/${listed[0]?.id ?? ''}`, gateway.url), { headers })).json()) as { question: { state: string; answeredBy: unknown }; audit: AuditLine[] };
    assert.equal(detail.question.state, 'answered');
    assert.deepEqual(detail.question.answeredBy, { kind: 'operator', name: 'Ben Franklin', subject: 'ben', issuer: provider.issuer });
    const operatorLines = detail.audit.filter((line) => line.actor.startsWith('operator:')).map((line) => [line.actor, line.action, line.detail?.subject]);
    assert.deepEqual(operatorLines, [
      [`operator:Ada Lovelace <ada> (${provider.issuer})`, 'approved', 'ada'],
      [`operator:Ada Lovelace <ada> (${provider.issuer})`, 'rejected-answer', 'ada'],
      [`operator:Ben Franklin <ben> (${provider.issuer})`, 'approved', 'ben'],
      [`operator:Ben Franklin <ben> (${provider.issuer})`, 'answered', 'ben'],
    ]);
    const cy = await provider.userToken({ subject: 'cy', resource: AUDIENCE, clientId: CLIENT_ID });
    const cyList = await (await fetch(new URL('/api/questions', gateway.url), { headers: { authorization: `Bearer ${cy.accessToken}` } })).text();
    const billingId = (JSON.parse(cyList) as { id: string }[])[0]?.id;
    assert.ok(billingId, `Cy lists no billing question: ${cyList}`);
    const hidden = await fetch(new URL(`/api/questions/${billingId}`, gateway.url), { headers });
    assert.equal(hidden.status, 404, 'another upstream\'s question does not exist for Ben');
    const metrics = await fetch(new URL('/metrics', gateway.url), { headers });
    assert.equal(metrics.status, 200, '/metrics takes an operator\'s access token');
    await metrics.body?.cancel();

    const other = await provider.userToken({ subject: 'ben', resource: OTHER_AUDIENCE, clientId: CLIENT_ID });
    const refused = await fetch(new URL('/api/questions', gateway.url), { headers: { authorization: `Bearer ${other.accessToken}` } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="switchboard"');
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /aud/);

    // Cy (billing-ops) declines the billing question with a bearer token: no CSRF token needed (an access token carries no name: the subject is shown).
    const declined = await fetch(new URL(`/api/questions/${billingId}/answer`, gateway.url), { method: 'POST', headers: { authorization: `Bearer ${cy.accessToken}`, 'content-type': 'application/json' }, body: '{"action":"decline"}' });
    assert.equal(declined.status, 200);
    assert.deepEqual(((await declined.json()) as { question: { answeredBy: unknown } }).question.answeredBy, { kind: 'operator', name: 'cy', subject: 'cy', issuer: provider.issuer });
    const ended = await billingCall.until(answers(8));
    assert.ok(ended, 'the billing call ends once declined');
  });

  it('the shared token is refused when auth.operators.token is off (the default with OpenID Connect)', async () => {
    assert.ok(provider);
    tokenOffGateway = await startGateway({
      upstreams: { desk: incidentDeskStdio() },
      console: { token: TOKEN },
      auth: { operators: { oidc: { issuer: provider.issuer, clientId: CLIENT_ID, audience: AUDIENCE } } },
    });
    const refused = await fetch(new URL('/api/questions', tokenOffGateway.url), { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(refused.status, 401);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /not accepted/);
    assert.deepEqual(await (await fetch(new URL('/api/auth', tokenOffGateway.url))).json(), { oidc: true, token: false, signIn: '/console/login' });
  });
});
