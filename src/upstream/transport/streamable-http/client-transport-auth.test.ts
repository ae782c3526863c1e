/** @module Tests of the Streamable HTTP client transport with an authorizer: a challenge answered and retried, a refusal left final. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { StreamableHttpClientTransport } from './client-transport.js';
import { scriptedUpstream } from './testing/scripted-upstream.js';
import { collect, until } from './testing/transport-watch.js';

const upstream = scriptedUpstream();

test('an authorizer answers a 401 challenge and the request is retried with its credentials', async () => {
  const authorizations: (string | undefined)[] = [];
  upstream.script = (body, req, res) => {
    authorizations.push(req.headers.authorization);
    if (req.headers.authorization !== 'Bearer fresh') {
      res.writeHead(401, { 'www-authenticate': 'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"' });
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: {} }));
  };
  let token: string | undefined;
  const challenges: number[] = [];
  const transport = new StreamableHttpClientTransport(new URL(upstream.url), {
    authorizer: {
      headers: async (): Promise<Record<string, string>> => (token ? { authorization: `Bearer ${token}` } : {}),
      challenge: async (response) => {
        challenges.push(response.status);
        token = 'fresh';
        return true;
      },
    },
  });
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  await until(() => seen.length === 1);
  assert.deepEqual(authorizations, [undefined, 'Bearer fresh']);
  assert.deepEqual(challenges, [401]);
  upstream.script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});

test('an authorizer that cannot help leaves the refusal final; challenges are not retried forever', async () => {
  let attempts = 0;
  upstream.script = (_body, _req, res) => {
    attempts += 1;
    res.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="admin"' });
    res.end();
  };
  const transport = new StreamableHttpClientTransport(new URL(upstream.url), {
    authorizer: { headers: async () => ({ authorization: 'Bearer t' }), challenge: async () => true },
  });
  collect(transport);
  await assert.rejects(transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), /HTTP 403/);
  assert.equal(attempts, 4, 'the first try and three retries');
  await transport.close();
});
