/** @module Tests of the upstream OAuth authorizer against a scripted authorization server and resource (OAuthLab). */

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { afterEach, describe, test } from 'node:test';

import type { OAuthSettings } from '../../../config/types.js';
import type { JsonRpcMessage } from '../../../protocol/jsonrpc.js';
import { StreamableHttpClientTransport } from '../streamable-http/client-transport.js';
import { UpstreamAuthError } from '../upstream-auth-error.js';
import { OAuthAuthorizer } from './oauth-authorizer.js';
import type { LabOptions } from './testing/oauth-lab.js';
import { OAuthLab } from './testing/oauth-lab.js';

const REDIRECT = 'http://127.0.0.1/oauth/callback';
const CIMD = 'https://switchboard.example/client.json';
const labs: OAuthLab[] = [];

afterEach(async () => {
  await Promise.all(labs.splice(0).map((lab) => lab.close()));
});

async function setup(options: LabOptions = {}, settings: Partial<OAuthSettings> = {}, now?: () => number) {
  const lab = await new OAuthLab(options).start();
  labs.push(lab);
  const authorizer = new OAuthAuthorizer(lab.mcpUrl, { type: 'oauth', redirectUrl: REDIRECT, ...settings }, { label: "upstream 'lab'", ...(now ? { now } : {}) });
  return { lab, authorizer };
}

/** What the Streamable HTTP transport does with an authorizer: credentials on every request, at most 3 challenges. */
async function rpc(authorizer: OAuthAuthorizer, url: URL, method: string): Promise<Response> {
  for (let challenges = 0; ; challenges += 1) {
    const headers = { 'content-type': 'application/json', ...(await authorizer.headers()) };
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }) });
    const refused = response.status === 401 || (response.status === 403 && /insufficient_scope/.test(response.headers.get('www-authenticate') ?? ''));
    if (challenges >= 3 || !refused) return response;
    await response.body?.cancel();
    if (!(await authorizer.challenge(response, url))) return response;
  }
}

async function expectOk(authorizer: OAuthAuthorizer, lab: OAuthLab, method = 'tools/list'): Promise<void> {
  const response = await rpc(authorizer, lab.mcpUrl, method);
  const text = await response.text();
  assert.equal(response.status, 200, text);
}

function authError(problem: UpstreamAuthError['problem'], message: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof UpstreamAuthError, `not an UpstreamAuthError: ${String(error)}`);
    assert.equal(error.problem, problem);
    assert.match(error.message, message);
    return true;
  };
}

const paths = (lab: OAuthLab) => lab.requests.map((request) => `${request.method} ${request.path}`);

describe('discovery', () => {
  test('the resource_metadata of the challenge is read directly; the well-known root is never asked', async () => {
    const { lab, authorizer } = await setup({ prm: { path: '/custom/metadata.json', inChallenge: true } });
    await expectOk(authorizer, lab);
    assert.deepEqual(paths(lab).slice(0, 3), ['POST /mcp', 'GET /custom/metadata.json', 'GET /.well-known/oauth-authorization-server']);
    assert.equal(lab.to('/.well-known/oauth-protected-resource').length, 0);
    assert.equal(lab.authorizations.length, 1);
  });

  test('without resource_metadata in the challenge, the path-based well-known URL comes before the root one', async () => {
    const { lab, authorizer } = await setup({ prm: { path: '/.well-known/oauth-protected-resource', inChallenge: false, resource: (origin) => origin } });
    await expectOk(authorizer, lab);
    assert.deepEqual(paths(lab).slice(1, 3), ['GET /.well-known/oauth-protected-resource/mcp', 'GET /.well-known/oauth-protected-resource']);
    assert.equal(lab.authorizations[0]?.get('resource'), lab.origin, 'the metadata’s resource is sent verbatim');
  });

  test('server metadata only at the OpenID Connect location is found after the RFC 8414 one', async () => {
    const { lab, authorizer } = await setup({ asMetadata: 'oidc' });
    await expectOk(authorizer, lab);
    assert.deepEqual(
      paths(lab).filter((path) => path.includes('/.well-known/o') && !path.includes('protected')),
      ['GET /.well-known/oauth-authorization-server', 'GET /.well-known/openid-configuration'],
    );
  });

  for (const [asMetadata, expected] of [
    ['oauth', ['GET /.well-known/oauth-authorization-server/tenant1']],
    ['oidc-appended', ['GET /.well-known/oauth-authorization-server/tenant1', 'GET /.well-known/openid-configuration/tenant1', 'GET /tenant1/.well-known/openid-configuration']],
  ] as const) {
    test(`an authorization server with a path (${asMetadata}) is looked up under that path, never at the root`, async () => {
      const { lab, authorizer } = await setup({ asPrefix: '/tenant1', asMetadata });
      await expectOk(authorizer, lab);
      assert.deepEqual(paths(lab).filter((path) => path.includes('authorization-server') || path.includes('openid')), expected);
      assert.equal(lab.to('/tenant1/authorize').length, 1);
    });
  }

  test('a 2025-03-26 server (no resource metadata) is its own authorization server, whatever issuer it publishes', async () => {
    const { lab, authorizer } = await setup({ prm: null, asPrefix: '/oauth', asMetadata: 'oauth-root' });
    await expectOk(authorizer, lab);
    assert.deepEqual(paths(lab).slice(1, 3), ['GET /.well-known/oauth-protected-resource/mcp', 'GET /.well-known/oauth-protected-resource']);
    assert.equal(lab.to('/.well-known/oauth-authorization-server').length, 1);
    assert.equal(lab.to('/oauth/register').length, 1);
    assert.equal(lab.authorizations.length, 1);
  });

  test('a 2025-03-26 server without any metadata gets /authorize, /token and /register at its origin, without resource', async () => {
    const { lab, authorizer } = await setup({ prm: null, asMetadata: null });
    await expectOk(authorizer, lab);
    assert.equal(lab.to('/register').length, 1);
    assert.equal(lab.authorizations.length, 1);
    assert.equal(lab.authorizations[0]?.get('resource'), null);
    assert.equal(lab.tokenRequests[0]?.form.get('resource'), null);
  });

  test('protected resource metadata for another resource is refused before anything is asked of the server', async () => {
    const { lab, authorizer } = await setup({ prm: { path: '/.well-known/oauth-protected-resource/mcp', inChallenge: true, resource: () => 'https://elsewhere.example/mcp' } });
    await assert.rejects(rpc(authorizer, lab.mcpUrl, 'tools/list'), authError('failed', /is for https:\/\/elsewhere\.example\/mcp/));
    assert.equal(lab.authorizations.length, 0);
    assert.equal(lab.to('/register').length, 0);
  });
});

describe('client registration', () => {
  test('dynamic registration with the redirect URI; PKCE S256, state and resource on the authorization request', async () => {
    const { lab, authorizer } = await setup();
    await expectOk(authorizer, lab);
    const registration = JSON.parse(lab.to('/register')[0]?.body ?? '{}') as Record<string, unknown>;
    assert.deepEqual(registration.redirect_uris, [REDIRECT]);
    assert.deepEqual(registration.grant_types, ['authorization_code', 'refresh_token']);
    assert.equal(registration.token_endpoint_auth_method, 'none');
    const query = lab.authorizations[0];
    assert.equal(query?.get('code_challenge_method'), 'S256');
    assert.equal(query?.get('client_id'), 'registered-1');
    assert.equal(query?.get('redirect_uri'), REDIRECT);
    assert.equal(query?.get('resource'), `${lab.origin}/mcp`);
    const token = lab.tokenRequests[0]?.form;
    assert.equal(createHash('sha256').update(token?.get('code_verifier') ?? '').digest('base64url'), query?.get('code_challenge'));
    assert.equal(token?.get('resource'), `${lab.origin}/mcp`);
  });

  test('a pre-registered client is used as configured: no registration, its secret by HTTP Basic', async () => {
    const { lab, authorizer } = await setup(
      { registration: false, authMethods: ['client_secret_basic'], clients: { 'pre-id': 'pre-secret' } },
      { clientId: 'pre-id', clientSecret: 'pre-secret' },
    );
    await expectOk(authorizer, lab);
    assert.equal(lab.to('/register').length, 0);
    assert.equal(lab.tokenRequests[0]?.authorization, `Basic ${Buffer.from('pre-id:pre-secret').toString('base64')}`);
  });

  test('the client metadata document URL is the client id when the server supports it, and registration is skipped', async () => {
    const { lab, authorizer } = await setup({ cimd: true }, { clientMetadataUrl: CIMD });
    await expectOk(authorizer, lab);
    assert.equal(lab.to('/register').length, 0);
    assert.equal(lab.authorizations[0]?.get('client_id'), CIMD);
    assert.equal(lab.tokenRequests[0]?.form.get('client_id'), CIMD);
  });

  test('a configured client metadata document URL is not used with a server that does not support it', async () => {
    const { lab, authorizer } = await setup({}, { clientMetadataUrl: CIMD });
    await expectOk(authorizer, lab);
    assert.equal(lab.to('/register').length, 1);
    assert.equal(lab.authorizations[0]?.get('client_id'), 'registered-1');
  });

  test('no registration endpoint and no client id: the error says what to configure', async () => {
    const { lab, authorizer } = await setup({ registration: false });
    await assert.rejects(rpc(authorizer, lab.mcpUrl, 'tools/list'), authError('failed', /no dynamic client registration.*auth\.clientId/));
  });

  for (const method of ['client_secret_basic', 'client_secret_post', 'none'] as const) {
    test(`the token endpoint is authenticated the way the server supports: ${method}`, async () => {
      const { lab, authorizer } = await setup({ authMethods: [method] });
      await expectOk(authorizer, lab);
      const { form, authorization } = lab.tokenRequests[0] ?? { form: new URLSearchParams(), authorization: undefined };
      assert.equal(authorization?.startsWith('Basic ') ?? false, method === 'client_secret_basic');
      assert.equal(form.has('client_secret'), method === 'client_secret_post');
      assert.equal(form.get('client_id') !== null, method !== 'client_secret_basic');
    });
  }
});

describe('scope selection', () => {
  const scopeAsked = async (options: LabOptions, settings: Partial<OAuthSettings> = {}) => {
    const { lab, authorizer } = await setup(options, settings);
    await expectOk(authorizer, lab);
    return lab.authorizations[0]?.get('scope') ?? undefined;
  };
  const prm = (scopesSupported?: string[]) => ({ path: '/.well-known/oauth-protected-resource/mcp', inChallenge: true, ...(scopesSupported ? { scopesSupported } : {}) });

  test('the challenge’s scope first', async () => {
    assert.equal(await scopeAsked({ prm: prm(['a', 'b', 'c']), requiredScopes: { '*': ['b'] }, scopeInChallenge: true }), 'b');
  });
  test('else the configured scope', async () => {
    assert.equal(await scopeAsked({ prm: prm(['a', 'b', 'c']) }, { scope: 'c' }), 'c');
  });
  test('else every scope the resource supports', async () => {
    assert.equal(await scopeAsked({ prm: prm(['a', 'b', 'c']) }), 'a b c');
  });
  test('else none: the parameter is left out', async () => {
    assert.equal(await scopeAsked({ prm: prm() }), undefined);
  });
  test('offline_access is added when the authorization server lists it', async () => {
    assert.equal(await scopeAsked({ prm: prm(['a']), serverScopes: ['a', 'offline_access'] }), 'a offline_access');
  });
});

describe('step-up and retry limits', () => {
  test('403 insufficient_scope: authorize again for the union of the scopes, then the call goes through', async () => {
    const { lab, authorizer } = await setup({ open: ['initialize'], scopeInChallenge: true, requiredScopes: { 'tools/call': ['read', 'write'], '*': ['read'] } });
    await expectOk(authorizer, lab, 'initialize');
    assert.equal(lab.authorizations.length, 0, 'no token asked for while none is needed');
    await expectOk(authorizer, lab, 'tools/list');
    await expectOk(authorizer, lab, 'tools/call');
    assert.deepEqual(lab.authorizations.map((query) => query.get('scope')), ['read', 'read write']);
    assert.equal(lab.to('/register').length, 1, 'the registered client is reused');
  });

  test('a 403 for a scope already asked for is final after one authorization, not a loop', async () => {
    const { lab, authorizer } = await setup({ scopeInChallenge: true, requiredScopes: { '*': ['admin'] }, grantable: [] });
    await assert.rejects(rpc(authorizer, lab.mcpUrl, 'tools/list'), authError('failed', /asks for "admin", which was already requested or granted/));
    assert.equal(lab.authorizations.length, 1);
    await assert.rejects(rpc(authorizer, lab.mcpUrl, 'tools/list'), authError('failed', /already requested or granted/));
    assert.equal(lab.authorizations.length, 1, 'a later request does not start over');
  });

  test('a resource refusing every token gets at most 3 authorizations a minute', async () => {
    const { lab, authorizer } = await setup({ refuseAll: true });
    const response = await rpc(authorizer, lab.mcpUrl, 'tools/list');
    assert.equal(response.status, 401, 'the transport gives up after 3 challenges');
    await response.body?.cancel();
    assert.equal(lab.authorizations.length, 3);
    await assert.rejects(rpc(authorizer, lab.mcpUrl, 'tools/list'), authError('failed', /authorized 3 times within 60 s/));
    assert.equal(lab.authorizations.length, 3);
  });

  test('sessions meeting the same 401 at once share one authorization', async () => {
    const { lab, authorizer } = await setup();
    await Promise.all([expectOk(authorizer, lab), expectOk(authorizer, lab), expectOk(authorizer, lab)]);
    assert.equal(lab.authorizations.length, 1);
    assert.equal(lab.to('/register').length, 1);
  });
});

describe('refresh', () => {
  test('a token about to expire is refreshed before it is sent, without a new authorization', async () => {
    let now = 1_000_000;
    const { lab, authorizer } = await setup({ refreshTokens: true, expiresIn: 300 }, {}, () => now);
    await expectOk(authorizer, lab);
    const first = (await authorizer.headers()).authorization;
    now += 250_000; // 50 s before expiry: inside the margin
    const second = (await authorizer.headers()).authorization;
    assert.notEqual(second, first);
    assert.deepEqual(lab.tokenRequests.map((request) => request.form.get('grant_type')), ['authorization_code', 'refresh_token']);
    assert.equal(lab.authorizations.length, 1);
  });

  test('a 401 on a refreshable token refreshes it; a refused refresh falls back to a new authorization', async () => {
    let now = 1_000_000;
    const { lab, authorizer } = await setup({ refreshTokens: true, expiresIn: 3600 }, {}, () => now);
    const grants = () => lab.tokenRequests.map((request) => request.form.get('grant_type'));
    await expectOk(authorizer, lab);
    lab.now += 3_601_000; // the resource sees the token expired; the authorizer's clock has not moved
    await expectOk(authorizer, lab);
    assert.deepEqual(grants(), ['authorization_code', 'refresh_token']);
    lab.now += 3_601_000;
    now += 120_000;
    lab.options.refuseRefresh = true;
    await expectOk(authorizer, lab);
    assert.deepEqual(grants(), ['authorization_code', 'refresh_token', 'refresh_token', 'authorization_code']);
    assert.equal(lab.authorizations.length, 2);
  });

  test('a token just refreshed for a 401 and refused again is not refreshed again: a new authorization follows', async () => {
    const { lab, authorizer } = await setup({ refreshTokens: true, expiresIn: 3600 });
    await expectOk(authorizer, lab);
    lab.now += 3_601_000;
    await expectOk(authorizer, lab);
    lab.now += 3_601_000;
    await expectOk(authorizer, lab);
    assert.deepEqual(lab.tokenRequests.map((request) => request.form.get('grant_type')), ['authorization_code', 'refresh_token', 'authorization_code']);
  });
});

describe('the headless authorization step', () => {
  test('redirects through other pages are followed to the redirect URI', async () => {
    const { lab, authorizer } = await setup({ authorize: 'hop' });
    await expectOk(authorizer, lab);
    assert.equal(lab.to('/hop').length, 1);
  });

  test('a sign-in page means a person is needed: the error names the authorization URL', async () => {
    const { lab, authorizer } = await setup({ authorize: 'page' });
    await assert.rejects(rpc(authorizer, lab.mcpUrl, 'tools/list'), (error: unknown) => {
      assert.ok(error instanceof UpstreamAuthError);
      assert.equal(error.problem, 'needs-person');
      assert.ok(error.authorizationUrl?.startsWith(`${lab.origin}/authorize?`), error.authorizationUrl);
      assert.ok(error.message.includes(error.authorizationUrl ?? '?'), error.message);
      return true;
    });
    assert.equal(lab.tokenRequests.length, 0);
  });

  test('login_required also needs a person; access_denied and a foreign state are failures', async () => {
    const cases = [
      ['login_required', 'needs-person', /login_required/],
      ['access_denied', 'failed', /refused: access_denied/],
      ['wrong-state', 'failed', /state that is not ours/],
    ] as const;
    for (const [authorize, problem, message] of cases) {
      const { lab, authorizer } = await setup({ authorize });
      await assert.rejects(rpc(authorizer, lab.mcpUrl, 'tools/list'), authError(problem, message));
      assert.equal(lab.tokenRequests.length, 0, authorize);
    }
  });
});

test('through the real Streamable HTTP transport: initialize is challenged, authorized and retried', async () => {
  const { lab, authorizer } = await setup();
  const transport = new StreamableHttpClientTransport(lab.mcpUrl, { authorizer });
  const seen: JsonRpcMessage[] = [];
  transport.onmessage = (message) => seen.push(message);
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  for (let i = 0; i < 100 && seen.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(seen, [{ jsonrpc: '2.0', id: 1, result: { method: 'initialize' } }]);
  assert.deepEqual(lab.to('/mcp').map((request) => request.headers.authorization?.split(' ')[0] ?? 'none'), ['none', 'Bearer']);
  await transport.close();
});
