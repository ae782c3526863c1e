/** @module Tests of choosing an HTTP upstream's authorizer: one per upstream when configured, a clear refusal when not. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { httpUpstreamSpec } from '../../../config/testing/upstream-spec.js';
import type { StreamableHttpUpstreamSpec } from '../../../config/types.js';
import { UpstreamAuthError } from '../upstream-auth-error.js';
import { OAuthAuthorizer } from './oauth-authorizer.js';
import { upstreamAuthorizer } from './upstream-authorizer.js';

function spec(auth?: StreamableHttpUpstreamSpec['auth']): StreamableHttpUpstreamSpec {
  return httpUpstreamSpec(auth ? { auth } : {});
}

test('every session to one configured upstream shares its authorizer (and so its tokens); another upstream has its own', () => {
  const remote = spec({ type: 'oauth', redirectUrl: 'http://127.0.0.1/oauth/callback' });
  const first = upstreamAuthorizer(remote, 'r');
  assert.ok(first instanceof OAuthAuthorizer);
  assert.equal(upstreamAuthorizer(remote, 'r'), first);
  assert.notEqual(upstreamAuthorizer(spec({ type: 'oauth', redirectUrl: 'http://127.0.0.1/oauth/callback' }), 'r'), first);
});

test('without an auth block a challenge fails as not configured, naming the upstream and what to add', async () => {
  const authorizer = upstreamAuthorizer(spec(), "upstream 'remote' (http://127.0.0.1:1/mcp)");
  assert.ok(!(authorizer instanceof OAuthAuthorizer));
  assert.deepEqual(await authorizer.headers(), {});
  const refusal = new Response('{}', { status: 401, headers: { 'www-authenticate': 'Bearer resource_metadata="http://x/prm"' } });
  await assert.rejects(authorizer.challenge(refusal, new URL('http://127.0.0.1:1/mcp')), (error: unknown) => {
    assert.ok(error instanceof UpstreamAuthError);
    assert.equal(error.problem, 'not-configured');
    assert.match(error.message, /^upstream 'remote' \(http:\/\/127\.0\.0\.1:1\/mcp\) asks for authorization \(HTTP 401, WWW-Authenticate: Bearer resource_metadata="http:\/\/x\/prm"\): add "auth: \{ type: oauth \}" to upstream 'remote'/);
    return true;
  });
});
