/**
 * @module e2e/oidc-provider-fixture.test: the tests' OpenID provider over real HTTP: discovery, client_credentials
 * and user JWTs that verify against its JWKS for the resource asked for (with the user's groups), the access-token
 * lifetime, introspection and revocation of opaque tokens, and dynamically registered public clients (openid-client's,
 * and the MCP SDK's OAuth client) taken through authorization code + PKCE by the fixture's headless login.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';

import { discoverAuthorizationServerMetadata, exchangeAuthorization, registerClient, startAuthorization } from '@modelcontextprotocol/client';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import * as client from 'openid-client';

import { type OidcFixture, startOidcProvider, type TestUser } from './harness/oidc-provider.js';

const RESOURCE = 'http://127.0.0.1:4100/mcp';
const ADA: TestUser = { subject: 'ada', password: 'ada-pw-1', name: 'Ada Lovelace', email: 'ada@example.test', groups: ['ops', 'mcp-admins'] };
const BOB: TestUser = { subject: 'bob', password: 'bob-pw-1', groups: [] };
const SCOPES = ['mcp:tools', 'mcp:admin'];

async function introspect(fixture: OidcFixture, token: string, as = fixture.introspectionClient): Promise<Record<string, unknown>> {
  const response = await fetch(fixture.endpoints.introspection, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${as.clientId}:${as.clientSecret}`).toString('base64')}` },
    body: new URLSearchParams({ token }),
  });
  assert.equal(response.status, 200);
  return (await response.json()) as Record<string, unknown>;
}

describe('the OpenID provider fixture', () => {
  let fixture: OidcFixture;
  let verify: (token: string, audience?: string) => Promise<JWTPayload>;
  before(async () => {
    fixture = await startOidcProvider({ users: [ADA, BOB], resources: [RESOURCE], scopes: SCOPES });
    const jwks = createRemoteJWKSet(new URL(fixture.endpoints.jwks));
    verify = async (token, audience = RESOURCE) => (await jwtVerify(token, jwks, { issuer: fixture.issuer, audience, typ: 'at+jwt' })).payload;
  });
  after(async () => {
    assert.deepEqual(fixture?.serverErrors, []);
    await fixture?.close();
  });

  test('discovery names the issuer, keys, introspection, registration and PKCE S256', async () => {
    assert.match(fixture.issuer, /^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${fixture.issuer}/.well-known/openid-configuration`);
    const metadata = (await response.json()) as Record<string, unknown>;
    assert.equal(metadata.issuer, fixture.issuer);
    assert.equal(metadata.jwks_uri, `${fixture.issuer}/jwks`);
    assert.equal(metadata.introspection_endpoint, `${fixture.issuer}/token/introspection`);
    assert.equal(metadata.registration_endpoint, `${fixture.issuer}/reg`);
    assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
    assert.ok((metadata.scopes_supported as string[]).includes('groups'));
    assert.ok((metadata.grant_types_supported as string[]).includes('client_credentials'));
  });

  test('a client_credentials token is a JWT for the resource, with the scope asked for and the client as subject', async () => {
    const token = await fixture.clientCredentialsToken({ resource: RESOURCE, scope: 'mcp:tools' });
    const claims = await verify(token);
    assert.equal(claims.sub, 'test-host');
    assert.equal(claims.client_id, 'test-host');
    assert.equal(claims.aud, RESOURCE);
    assert.equal(claims.scope, 'mcp:tools');
    assert.equal(typeof claims.exp, 'number');
    assert.equal((claims.exp ?? 0) - (claims.iat ?? 0), 300);
    assert.equal(decodeProtectedHeader(token).alg, 'RS256');
  });

  test('a resource the provider does not serve is refused', async () => {
    await assert.rejects(fixture.clientCredentialsToken({ resource: 'http://127.0.0.1:4999/mcp' }), /invalid_target/);
  });

  test('a user token comes through login and consent, carries sub, groups and aud, with an ID token and a refresh token', async () => {
    const tokens = await fixture.userToken({ subject: 'ada', resource: RESOURCE });
    const claims = await verify(tokens.accessToken);
    assert.equal(claims.sub, 'ada');
    assert.equal(claims.aud, RESOURCE);
    assert.deepEqual(claims.groups, ['ops', 'mcp-admins']);
    assert.equal(claims.scope, 'mcp:tools mcp:admin');
    assert.equal(claims.client_id, 'switchboard-console');
    assert.ok(tokens.idToken, 'an ID token');
    const idClaims = decodeJwt(tokens.idToken);
    assert.deepEqual([idClaims.sub, idClaims.name, idClaims.email, idClaims.groups], ['ada', 'Ada Lovelace', 'ada@example.test', ['ops', 'mcp-admins']]);
    assert.ok(tokens.refreshToken, 'a refresh token');

    const only = await fixture.userToken({ subject: 'bob', resource: RESOURCE, scope: 'openid mcp:tools' });
    const bob = await verify(only.accessToken);
    assert.deepEqual([bob.sub, bob.scope, bob.groups], ['bob', 'mcp:tools', []]);
    assert.equal(only.refreshToken, undefined);
  });

  test('a wrong password ends the authorization with access_denied', async () => {
    await assert.rejects(fixture.userToken({ subject: 'nobody', resource: RESOURCE }), /no test user nobody/);
    const url = new URL(fixture.endpoints.authorization);
    url.search = new URLSearchParams({ response_type: 'code', client_id: 'switchboard-console', redirect_uri: 'http://127.0.0.1/callback', scope: 'openid', state: 's1', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }).toString();
    const redirect = await fixture.authorize(url.href, 'ada', 'not-her-password');
    assert.equal(redirect.origin + redirect.pathname, 'http://127.0.0.1/callback');
    assert.equal(redirect.searchParams.get('error'), 'access_denied');
    assert.equal(redirect.searchParams.get('state'), 's1');
  });

  test('an opaque token is active for the introspection client, with its audience and scope, until revoked; JWTs are not introspected', async () => {
    const token = await fixture.opaqueToken({ resource: RESOURCE, scope: 'mcp:admin' });
    assert.equal(token.split('.').length, 1, 'not a JWT');
    const answer = await introspect(fixture, token);
    assert.equal(answer.active, true);
    assert.equal(answer.aud, RESOURCE);
    assert.equal(answer.scope, 'mcp:admin');
    assert.equal(answer.client_id, 'test-host-opaque');
    assert.equal(answer.iss, fixture.issuer);
    assert.deepEqual(await introspect(fixture, token, fixture.hostClient), { active: false }, 'another client learns nothing');

    const { clientId, clientSecret } = fixture.introspectionClient;
    const revoked = await fetch(fixture.endpoints.revocation, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ token }),
    });
    assert.equal(revoked.status, 200);
    assert.deepEqual(await introspect(fixture, token), { active: false }, 'revoked');

    const jwt = await fixture.clientCredentialsToken({ resource: RESOURCE });
    const response = await fetch(fixture.endpoints.introspection, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ token: jwt }),
    });
    assert.equal(response.status, 400, 'oidc-provider refuses to introspect its structured tokens');
  });

  test('a dynamically registered public client with a loopback redirect gets a code through authorize() and exchanges it (openid-client)', async () => {
    const redirectUri = 'http://127.0.0.1:4321/oauth/callback';
    const config = await client.dynamicClientRegistration(
      new URL(fixture.issuer),
      { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], scope: 'mcp:tools', client_name: 'an MCP host' },
      client.None(),
      { execute: [client.allowInsecureRequests] },
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'mcp:tools',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource: RESOURCE,
    });
    const redirect = await fixture.authorize(authorizationUrl.href, 'ada');
    assert.equal(redirect.origin + redirect.pathname, redirectUri);
    assert.ok(redirect.searchParams.get('code'));
    const tokens = await client.authorizationCodeGrant(config, redirect, { pkceCodeVerifier: verifier, expectedState: state }, { resource: RESOURCE });
    const claims = await verify(tokens.access_token);
    assert.deepEqual([claims.sub, claims.aud, claims.scope, claims.client_id, claims.groups], ['ada', RESOURCE, 'mcp:tools', config.clientMetadata().client_id, ['ops', 'mcp-admins']]);
  });

  test('the MCP SDK\'s own OAuth client discovers the provider, registers, and exchanges the code authorize() got for a JWT for the resource', async () => {
    const metadata = await discoverAuthorizationServerMetadata(fixture.issuer);
    assert.equal(metadata?.issuer, fixture.issuer);
    const redirectUrl = 'http://localhost:4322/callback';
    const clientInformation = await registerClient(fixture.issuer, {
      metadata,
      clientMetadata: { redirect_uris: [redirectUrl], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], scope: 'mcp:tools', client_name: 'sdk host' },
    });
    const { authorizationUrl, codeVerifier } = await startAuthorization(fixture.issuer, { metadata, clientInformation, redirectUrl, scope: 'mcp:tools', state: 'sdk-state', resource: new URL(RESOURCE) });
    assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
    const redirect = await fixture.authorize(authorizationUrl.href, 'bob');
    const code = redirect.searchParams.get('code');
    assert.ok(code, redirect.href);
    assert.equal(redirect.searchParams.get('state'), 'sdk-state');
    const tokens = await exchangeAuthorization(fixture.issuer, {
      metadata,
      clientInformation,
      authorizationCode: code,
      iss: redirect.searchParams.get('iss') ?? undefined,
      codeVerifier,
      redirectUri: redirectUrl,
      resource: new URL(RESOURCE),
    });
    const claims = await verify(tokens.access_token);
    assert.deepEqual([claims.sub, claims.scope, claims.client_id], ['bob', 'mcp:tools', clientInformation.client_id]);
  });

  test('a code without its PKCE verifier is refused', async () => {
    const url = new URL(fixture.endpoints.authorization);
    url.search = new URLSearchParams({ response_type: 'code', client_id: 'switchboard-console', redirect_uri: 'http://127.0.0.1/callback', scope: 'openid', state: 's2' }).toString();
    const redirect = await fixture.authorize(url.href, 'ada');
    assert.equal(redirect.searchParams.get('error'), 'invalid_request', 'PKCE is required');
  });
});

describe('the OpenID provider fixture with a short access-token lifetime', () => {
  let fixture: OidcFixture;
  before(async () => {
    fixture = await startOidcProvider({ users: [ADA], resources: (resource) => resource.endsWith('/mcp'), scopes: SCOPES, accessTokenTtlSeconds: 2 });
  });
  after(() => fixture?.close());

  test('tokens live as long as configured, then fail verification and introspection', async () => {
    const jwks = createRemoteJWKSet(new URL(fixture.endpoints.jwks));
    const token = await fixture.clientCredentialsToken({ resource: RESOURCE, scope: 'mcp:tools' });
    const user = (await fixture.userToken({ subject: 'ada', resource: 'http://127.0.0.1:4200/mcp' })).accessToken;
    const opaque = await fixture.opaqueToken({ resource: RESOURCE });
    for (const jwt of [token, user]) {
      const { exp, iat } = decodeJwt(jwt);
      assert.equal((exp ?? 0) - (iat ?? 0), 2);
    }
    assert.equal((await introspect(fixture, opaque)).active, true);
    await sleep(3_100);
    await assert.rejects(jwtVerify(token, jwks, { issuer: fixture.issuer, audience: RESOURCE }), joseErrors.JWTExpired);
    assert.deepEqual(await introspect(fixture, opaque), { active: false });
  });
});
