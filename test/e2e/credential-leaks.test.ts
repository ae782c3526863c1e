/**
 * @module e2e/credential-leaks.test: a real `switchboard serve` with a down HTTP upstream whose URL carries a user,
 * a password and an API key: `/healthz` tells anyone only ready/not ready, the operator sees the detail with the
 * URL redacted, the log never carries the credentials, and every `/api/` path without the token is 401. And an
 * answer to a password field, from the host or an operator, reaches the upstream and is served as "[redacted]".
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { OperatorApi } from './harness/operator-api.js';
import { freePort } from './harness/ports.js';
import { RawHost } from './harness/raw-host.js';
import { toolText } from './harness/tool-results.js';
import { labStdio, streamableHttpUpstream } from './harness/upstreams.js';

const TOKEN = 'e2e-operator-token-leaks-4Fq8Wz';
const PASSWORD = 's3cr3t-pass-Zr7';
const API_KEY = 'k3y-Value-9Pq2';
const SECRETS = [PASSWORD, API_KEY, 'alice'];

function assertNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) assert.equal(text.includes(secret), false, `${where} shows ${JSON.stringify(secret)}: ${text}`);
}

describe('credentials in an upstream URL (switchboard serve, a down HTTP upstream next to the lab)', () => {
  let gateway: RunningGateway;
  before(async () => {
    // Nothing listens on the port: the upstream is down, and its error is what the gateway reports and logs.
    const url = `http://alice:${PASSWORD}@127.0.0.1:${await freePort()}/mcp?api_key=${API_KEY}&region=eu`;
    gateway = await startGateway({ upstreams: { lab: labStdio(), vault: streamableHttpUpstream(url) }, console: { token: TOKEN } });
  });
  after(() => gateway?.stop());

  test('/healthz without the operator token says only whether the gateway is ready', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-token' }] as Record<string, string>[]) {
      const response = await fetch(new URL('/healthz', gateway.url), { headers });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.deepEqual(JSON.parse(text), { ready: true });
      assertNoSecret(text, '/healthz');
    }
  });

  test('/healthz with the operator token shows each upstream, the down one\'s reason with its URL redacted', async () => {
    const { status, body } = await gateway.health();
    assert.equal(status, 200);
    const vault = body.upstreams.find((upstream) => upstream.name === 'vault');
    assert.equal(body.upstreams.find((upstream) => upstream.name === 'lab')?.state, 'up', JSON.stringify(body));
    assert.equal(vault?.state, 'down', JSON.stringify(body));
    // The reason names the URL it failed on (fetch refuses one with credentials), as the operator may read it.
    assert.match(vault.error ?? '', /http:\/\/\*\*\*@127\.0\.0\.1:\d+\/mcp\?api_key=\*\*\*&region=\*\*\*/);
    assertNoSecret(JSON.stringify(body), 'the operator\'s /healthz');
  });

  test('the log names the down upstream and never its credentials', () => {
    const logs = gateway.logs();
    assert.match(logs, /upstream 'vault' is down/);
    assertNoSecret(logs, 'the log');
  });

  test('every /api/ path is 401 without the operator token, known or not; with it an unknown one is 404', async () => {
    for (const path of ['/api/', '/api/other', '/api/questionsx', '/api/runs-archive/1', '/api/questions']) {
      const anonymous = await fetch(new URL(path, gateway.url));
      assert.equal(anonymous.status, 401, path);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="switchboard"', path);
      await anonymous.body?.cancel();
    }
    const known = await fetch(new URL('/api/other', gateway.url), { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(known.status, 404);
    assert.equal(((await known.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });
});

describe('an answer to a password field (switchboard serve, the lab asking with route both)', () => {
  let gateway: RunningGateway;
  let api: OperatorApi;
  before(async () => {
    gateway = await startGateway({ upstreams: { lab: labStdio() }, questions: { route: 'both' }, console: { token: TOKEN } });
    api = new OperatorApi(gateway.url, TOKEN, 'Ada');
  });
  after(() => gateway?.stop());

  async function askSecret(t: { after(fn: () => Promise<void>): void }, id: number) {
    const host = await RawHost.connect(gateway.url, { capabilities: { elicitation: { form: {} } } });
    t.after(() => host.close());
    const known = await api.ids();
    const call = await host.callTool(id, 'ask', { message: 'Vault password?', secret: true });
    const asked = await call.expectNext();
    assert.equal(asked.method, 'elicitation/create', JSON.stringify(asked));
    const question = await api.awaitNewQuestion(known, 'state=delivered');
    return { host, call, asked, question };
  }

  /** What the operator API serves of the question: the record, its audit, and the list. */
  async function served(id: string): Promise<string> {
    return JSON.stringify([await api.detail(id), await api.list()]);
  }

  test('answered by the host: the upstream gets the password, the operator API serves "[redacted]"', async (t) => {
    const secret = 'host-typed-Pw-41x';
    const { host, call, asked, question } = await askSecret(t, 1);
    assert.equal((await host.answer(asked.id, { action: 'accept', content: { answer: secret } })).status, 202);
    const result = (await call.rest()).find((message) => message.id === 1);
    assert.equal(toolText(result), `accept: ${secret}`, 'the upstream got what the host typed');
    const detail = await api.detail(question.id);
    assert.deepEqual(detail.question.answer, { action: 'accept', content: { answer: '[redacted]' } });
    assert.equal((await served(question.id)).includes(secret), false);
  });

  test('answered by an operator: the upstream gets the password; the answer\'s 200 and the record say "[redacted]"', async (t) => {
    const secret = 'operator-typed-Pw-73q';
    const { call, question } = await askSecret(t, 2);
    const reply = await api.answer(question.id, { action: 'accept', content: { answer: secret } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.text.includes(secret), false, reply.text);
    const result = (await call.rest()).find((message) => message.id === 2);
    assert.equal(toolText(result), `accept: ${secret}`, 'the upstream got what the operator typed');
    assert.deepEqual((await api.detail(question.id)).question.answer, { action: 'accept', content: { answer: '[redacted]' } });
    assert.equal((await served(question.id)).includes(secret), false);
  });
});
