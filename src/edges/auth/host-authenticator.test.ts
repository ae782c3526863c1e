/** @module Host authentication with JWT access tokens against a real authorization server on a socket: claims, times, issuer, audience, algorithms, keys, discovery, scopes. */

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { ANONYMOUS } from '../../access/principal.js';
import type { HostAuthSettings } from '../../config/types.js';
import { silentLogger } from '../../core/log.js';
import { createHostAuthenticator } from './host-authenticator.js';
import type { HostAuthenticatorOptions, HostAuthOutcome } from './host-authenticator.js';
import { captureLog } from '../../core/testing/capture-log.js';
import { startTestAuthorizationServer } from './testing/test-authorization-server.js';
import type { TestAuthorizationServer } from './testing/test-authorization-server.js';

const RESOURCE = 'https://gateway.example.test/mcp';
const METADATA_URL = 'https://gateway.example.test/.well-known/oauth-protected-resource/mcp';

let as: TestAuthorizationServer;
before(async () => {
  as = await startTestAuthorizationServer();
});
after(() => as.close());

type OAuthSettings = Extract<HostAuthSettings, { kind: 'oauth' }>;

function oauth(server: TestAuthorizationServer, more: Partial<OAuthSettings> = {}): OAuthSettings {
  return { kind: 'oauth', issuer: server.issuer, algorithms: ['RS256', 'ES256'], scopes: [], groupsClaim: 'groups', clockToleranceMs: 0, ...more };
}

function authenticator(settings: HostAuthSettings, more: Partial<HostAuthenticatorOptions> = {}) {
  return createHostAuthenticator(settings, { resource: RESOURCE, resourceMetadataUrl: METADATA_URL, logger: silentLogger, ...more });
}

const seconds = () => Math.floor(Date.now() / 1000);
const claims = (more: Record<string, unknown> = {}) => ({ iss: as.issuer, aud: RESOURCE, sub: 'host-1', iat: seconds(), exp: seconds() + 300, ...more });

function refused(outcome: HostAuthOutcome) {
  assert.equal(outcome.ok, false, 'expected a refusal');
  if (outcome.ok) throw new Error('unreachable');
  return outcome;
}

function accepted(outcome: HostAuthOutcome) {
  if (!outcome.ok) assert.fail(`expected acceptance, got ${outcome.status} ${outcome.error ?? ''} ${outcome.description}`);
  return outcome.principal;
}

test('kind none: every request is the anonymous principal, and there is no metadata', async () => {
  const auth = authenticator({ kind: 'none' });
  assert.equal(auth.enabled, false);
  assert.deepEqual(await auth.authenticate(null), { ok: true, principal: ANONYMOUS });
  assert.equal(auth.metadata(), undefined);
});

test('a valid token gives its principal: groups as a list, scope as a string, client_id, name', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri }));
  assert.equal(auth.enabled, true);
  const token = await as.sign(claims({ groups: ['ops', 'dev', 7], scope: 'mcp:tools  mcp:read', client_id: 'claude', name: 'Ada', email: 'ada@example.test' }));
  assert.deepEqual(accepted(await auth.authenticate(`Bearer ${token}`)), {
    issuer: as.issuer,
    subject: 'host-1',
    groups: ['ops', 'dev'],
    scopes: ['mcp:tools', 'mcp:read'],
    clientId: 'claude',
    name: 'Ada',
  });
});

test('groups as a space-separated string, scopes from scp, the client from azp, ES256 keys found by discovery', async () => {
  const es = await startTestAuthorizationServer({ alg: 'ES256' });
  try {
    const auth = authenticator(oauth(es, { groupsClaim: 'roles' }));
    const token = await es.sign({ iss: es.issuer, aud: RESOURCE, sub: 'h2', exp: seconds() + 60, roles: 'a b', scp: ['x', 'y'], azp: 'cursor', preferred_username: 'bob' });
    assert.deepEqual(accepted(await auth.authenticate(`Bearer ${token}`)), { issuer: es.issuer, subject: 'h2', groups: ['a', 'b'], scopes: ['x', 'y'], clientId: 'cursor', name: 'bob' });
    assert.equal(es.hits.get('/.well-known/oauth-authorization-server'), 1);
  } finally {
    await es.close();
  }
});

test('exp and nbf are enforced, with the configured clock tolerance', async () => {
  const now = Date.now();
  const expired = await as.sign(claims({ exp: Math.floor(now / 1000) - 10 }));
  const early = await as.sign(claims({ nbf: Math.floor(now / 1000) + 10 }));
  const strict = authenticator(oauth(as, { jwksUri: as.jwksUri }), { now: () => now });
  const expiredOutcome = refused(await strict.authenticate(`Bearer ${expired}`));
  assert.equal(expiredOutcome.status, 401);
  assert.equal(expiredOutcome.error, 'invalid_token');
  assert.equal(expiredOutcome.wwwAuthenticate, `Bearer error="invalid_token", resource_metadata="${METADATA_URL}", error_description="The access token has expired"`);
  assert.equal(refused(await strict.authenticate(`Bearer ${early}`)).description, 'The access token is not valid yet');

  const lenient = authenticator(oauth(as, { jwksUri: as.jwksUri, clockToleranceMs: 30_000 }), { now: () => now });
  accepted(await lenient.authenticate(`Bearer ${expired}`));
  accepted(await lenient.authenticate(`Bearer ${early}`));
});

test('a token without exp or without sub is refused', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri }));
  const { exp: _exp, ...noExp } = claims();
  const { sub: _sub, ...noSub } = claims();
  assert.equal(refused(await auth.authenticate(`Bearer ${await as.sign(noExp)}`)).status, 401);
  assert.equal(refused(await auth.authenticate(`Bearer ${await as.sign(noSub)}`)).error, 'invalid_token');
  assert.equal(refused(await auth.authenticate(`Bearer ${await as.sign(claims({ sub: '' }))}`)).error, 'invalid_token');
});

test('the issuer must match exactly', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri }));
  for (const iss of ['https://other.example.test', `${as.issuer}/`]) {
    assert.equal(refused(await auth.authenticate(`Bearer ${await as.sign(claims({ iss }))}`)).error, 'invalid_token', iss);
  }
});

test('audience: the resource, with or without a trailing slash, alone or among others; a configured audience exactly', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri }));
  const sign = (aud: unknown) => as.sign(claims({ aud }));
  accepted(await auth.authenticate(`Bearer ${await sign(`${RESOURCE}/`)}`));
  accepted(await auth.authenticate(`Bearer ${await sign(['https://api.example.test', RESOURCE])}`));
  for (const aud of ['https://gateway.example.test', 'https://gateway.example.test/mcp2', ['https://api.example.test'], 'HTTPS://gateway.example.test/mcp']) {
    const outcome = refused(await auth.authenticate(`Bearer ${await sign(aud)}`));
    assert.equal(outcome.description, 'The access token was not issued for this resource', JSON.stringify(aud));
  }
  const configured = authenticator(oauth(as, { jwksUri: as.jwksUri, audience: 'switchboard-api' }));
  accepted(await configured.authenticate(`Bearer ${await sign('switchboard-api')}`));
  refused(await configured.authenticate(`Bearer ${await sign(RESOURCE)}`));
  refused(await configured.authenticate(`Bearer ${await sign('switchboard-api/')}`));
});

test('typ: at+jwt, JWT or none are access tokens; another typ is refused', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri }));
  for (const typ of ['at+jwt', 'application/at+jwt', 'JWT', undefined]) accepted(await auth.authenticate(`Bearer ${await as.sign(claims(), { typ })}`));
  for (const typ of ['dpop+jwt', 'logout+jwt', 7]) refused(await auth.authenticate(`Bearer ${await as.sign(claims(), { typ })}`));
});

test('alg confusion: HS256 keyed with the public key is refused, as is alg none', async () => {
  const { SignJWT } = await import('jose');
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri, algorithms: ['RS256', 'HS256', 'none'] }));
  const forged = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: as.kid }).sign(new TextEncoder().encode(await as.publicKeyPem()));
  assert.equal(refused(await auth.authenticate(`Bearer ${forged}`)).error, 'invalid_token');
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`;
  assert.equal(refused(await auth.authenticate(`Bearer ${unsigned}`)).error, 'invalid_token');
  // The same claims, properly signed, pass: the refusals are about the algorithm.
  accepted(await auth.authenticate(`Bearer ${await as.sign(claims())}`));
  assert.throws(() => authenticator(oauth(as, { algorithms: ['HS256', 'none'] })), /asymmetric/);
});

test('a bad signature is refused', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri }));
  const token = await as.sign(claims());
  const [header, payload] = token.split('.');
  const tampered = `${header}.${Buffer.from(JSON.stringify(claims({ sub: 'admin' }))).toString('base64url')}.${token.split('.')[2]}`;
  assert.notEqual(payload, tampered.split('.')[1]);
  assert.equal(refused(await auth.authenticate(`Bearer ${tampered}`)).status, 401);
});

test('key rotation: a token with a new kid is accepted after the keys are fetched again; the old key is gone', async () => {
  const rotating = await startTestAuthorizationServer();
  try {
    const auth = authenticator(oauth(rotating, { jwksUri: rotating.jwksUri }), { jwksCooldownMs: 0 });
    const payload = { iss: rotating.issuer, aud: RESOURCE, sub: 'h', exp: seconds() + 60 };
    const old = await rotating.sign(payload);
    accepted(await auth.authenticate(`Bearer ${old}`));
    await rotating.rotate();
    accepted(await auth.authenticate(`Bearer ${await rotating.sign(payload)}`));
    assert.equal(rotating.hits.get('/jwks'), 2);
    const outcome = refused(await auth.authenticate(`Bearer ${old}`));
    assert.equal(outcome.status, 401);
  } finally {
    await rotating.close();
  }
});

test('keys unreachable: 503 temporarily_unavailable, not 401, with one warning for many requests and no token in the log', async () => {
  const down = await startTestAuthorizationServer();
  const settings = oauth(down, { jwksUri: down.jwksUri });
  const token = await down.sign({ iss: down.issuer, aud: RESOURCE, sub: 'h', exp: seconds() + 60 });
  await down.close();
  const { logger, entries } = captureLog();
  const auth = authenticator(settings, { logger });
  for (let i = 0; i < 3; i += 1) {
    const outcome = refused(await auth.authenticate(`Bearer ${token}`));
    assert.equal(outcome.status, 503);
    assert.equal(outcome.error, 'temporarily_unavailable');
    assert.equal(outcome.wwwAuthenticate, `Bearer resource_metadata="${METADATA_URL}"`);
  }
  const warnings = entries.filter((entry) => entry.level === 'warn');
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]?.fields?.['issuer'], down.issuer);
  assert.equal(JSON.stringify(entries).includes(token), false);
});

test('the JWKS answering 500 is also 503', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri }));
  as.failing.add('jwks');
  try {
    assert.equal(refused(await auth.authenticate(`Bearer ${await as.sign(claims())}`)).status, 503);
  } finally {
    as.failing.delete('jwks');
  }
});

test('discovery falls back to OpenID configuration, inserted then appended, for an issuer with a path', async () => {
  for (const mode of ['openid-inserted', 'openid-appended'] as const) {
    const server = await startTestAuthorizationServer({ issuerPath: '/tenant', discovery: mode });
    try {
      const auth = authenticator(oauth(server));
      const token = await server.sign({ iss: server.issuer, aud: RESOURCE, sub: 'h', exp: seconds() + 60 });
      accepted(await auth.authenticate(`Bearer ${token}`));
      accepted(await auth.authenticate(`Bearer ${token}`));
      assert.equal(server.hits.get('/.well-known/oauth-authorization-server/tenant'), 1, mode);
      assert.equal(server.hits.get(mode === 'openid-inserted' ? '/.well-known/openid-configuration/tenant' : '/tenant/.well-known/openid-configuration'), 1, mode);
    } finally {
      await server.close();
    }
  }
});

test('a failed discovery is retried after a backoff, not on every request', async () => {
  const server = await startTestAuthorizationServer({ discovery: 'none' });
  try {
    let now = Date.now();
    const auth = authenticator(oauth(server), { now: () => now });
    const token = await server.sign({ iss: server.issuer, aud: RESOURCE, sub: 'h', exp: seconds() + 600 });
    const tries = () => server.hits.get('/.well-known/oauth-authorization-server') ?? 0;
    assert.equal(refused(await auth.authenticate(`Bearer ${token}`)).status, 503);
    assert.equal(refused(await auth.authenticate(`Bearer ${token}`)).status, 503);
    assert.equal(tries(), 1);
    server.discovery = 'oauth';
    now += 500;
    assert.equal(refused(await auth.authenticate(`Bearer ${token}`)).status, 503);
    assert.equal(tries(), 1);
    now += 600;
    accepted(await auth.authenticate(`Bearer ${token}`));
    assert.equal(tries(), 2);
  } finally {
    await server.close();
  }
});

test('required scopes: a token without them gets 403 insufficient_scope naming them', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri, scopes: ['mcp:tools', 'mcp:admin'] }));
  const outcome = refused(await auth.authenticate(`Bearer ${await as.sign(claims({ scope: 'mcp:tools' }))}`));
  assert.equal(outcome.status, 403);
  assert.equal(outcome.error, 'insufficient_scope');
  assert.equal(
    outcome.wwwAuthenticate,
    `Bearer error="insufficient_scope", scope="mcp:tools mcp:admin", resource_metadata="${METADATA_URL}", error_description="The access token lacks a required scope"`,
  );
  accepted(await auth.authenticate(`Bearer ${await as.sign(claims({ scope: 'mcp:admin other mcp:tools' }))}`));
});

test('no credentials, or another scheme: 401 with the bare challenge and no error code', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri, scopes: ['mcp:tools'] }));
  for (const header of [null, '', '   ', 'Basic dXNlcjpwYXNz', 'eyJhbGciOi.x.y']) {
    const outcome = refused(await auth.authenticate(header));
    assert.equal(outcome.status, 401, String(header));
    assert.equal(outcome.error, undefined);
    assert.equal(outcome.wwwAuthenticate, `Bearer resource_metadata="${METADATA_URL}", scope="mcp:tools"`);
  }
});

test('a Bearer header that is not one token is 400 invalid_request; the scheme is read in any case, with extra spaces', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri }));
  const token = await as.sign(claims());
  for (const header of [`bearer ${token}`, `BEARER   ${token}`, `  Bearer ${token}  `]) accepted(await auth.authenticate(header));
  for (const header of ['Bearer', 'Bearer    ', `Bearer ${token} extra`, 'Bearer ab"c', 'Bearer a=b']) {
    const outcome = refused(await auth.authenticate(header));
    assert.equal(outcome.status, 400, header);
    assert.equal(outcome.error, 'invalid_request', header);
    assert.match(outcome.wwwAuthenticate, /^Bearer error="invalid_request", resource_metadata="[^"]+", error_description="[^"]+"$/);
  }
});

test('an opaque token without introspection configured is 401 invalid_token', async () => {
  const auth = authenticator(oauth(as, { jwksUri: as.jwksUri }));
  const outcome = refused(await auth.authenticate('Bearer opaque-token-value'));
  assert.equal(outcome.status, 401);
  assert.equal(outcome.error, 'invalid_token');
});

test('metadata is the RFC 9728 document', () => {
  assert.deepEqual(authenticator(oauth(as, { scopes: ['mcp:tools'] })).metadata(), {
    resource: RESOURCE,
    authorization_servers: [as.issuer],
    bearer_methods_supported: ['header'],
    scopes_supported: ['mcp:tools'],
    resource_name: 'Switchboard',
  });
});
