/**
 * @module e2e/credential-leaks.test: a real `switchboard serve` with a down HTTP upstream whose URL carries a user,
 * a password and an API key: `/healthz` tells anyone only ready/not ready, the operator sees the detail with the
 * URL redacted, the log never carries the credentials, and every `/api/` path without the token is 401.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { freePort } from './harness/ports.js';
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
