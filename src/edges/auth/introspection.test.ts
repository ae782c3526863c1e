/** @module Opaque host tokens checked by RFC 7662 introspection against a real authorization server: active, inactive, audience, issuer, times, the cache, the gateway's own credentials. */

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import type { HostAuthSettings } from '../../config/types.js';
import { silentLogger } from '../../core/log.js';
import { createHostAuthenticator } from './host-authenticator.js';
import { createIntrospector } from './introspection.js';
import type { HostAuthenticatorOptions, HostAuthOutcome } from './host-authenticator.js';
import { captureLog } from '../../core/testing/capture-log.js';
import { startTestAuthorizationServer } from './testing/test-authorization-server.js';
import type { TestAuthorizationServer } from './testing/test-authorization-server.js';

const RESOURCE = 'https://gateway.example.test/mcp';
const METADATA_URL = 'https://gateway.example.test/.well-known/oauth-protected-resource/mcp';
const SECRET = 'se cret:with/odd+chars';

let as: TestAuthorizationServer;
before(async () => {
  as = await startTestAuthorizationServer({ clientId: 'gateway', clientSecret: SECRET });
});
after(() => as.close());

function settings(more: { endpoint?: boolean; secret?: string } = {}): HostAuthSettings {
  return {
    kind: 'oauth',
    issuer: as.issuer,
    jwksUri: as.jwksUri,
    algorithms: ['RS256'],
    introspection: { ...(more.endpoint === false ? {} : { endpoint: as.introspectionEndpoint }), clientId: 'gateway', clientSecret: more.secret ?? SECRET },
    scopes: [],
    groupsClaim: 'groups',
    clockToleranceMs: 0,
  };
}

const authenticator = (more: { endpoint?: boolean; secret?: string } = {}, options: Partial<HostAuthenticatorOptions> = {}) =>
  createHostAuthenticator(settings(more), { resource: RESOURCE, resourceMetadataUrl: METADATA_URL, logger: silentLogger, ...options });

let counter = 0;
/** A fresh opaque token the server answers `answer` for. */
function opaque(answer: Record<string, unknown>): string {
  counter += 1;
  const token = `opaque-${counter}-${Math.random().toString(36).slice(2)}`;
  as.introspection.set(token, answer);
  return token;
}

const seconds = () => Math.floor(Date.now() / 1000);
const active = (more: Record<string, unknown> = {}) => ({ active: true, iss: as.issuer, aud: RESOURCE, sub: 'host-7', exp: seconds() + 300, ...more });
const introspections = () => as.hits.get('/introspect') ?? 0;

function refusal(outcome: HostAuthOutcome) {
  if (outcome.ok) return assert.fail('expected a refusal');
  return outcome;
}

test('an active token gives its principal; the answer is reused without asking again', async () => {
  const auth = authenticator();
  const token = opaque(active({ scope: 'mcp:tools', groups: ['ops'], client_id: 'claude', username: 'ada' }));
  const before = introspections();
  const expected = { ok: true, principal: { issuer: as.issuer, subject: 'host-7', groups: ['ops'], scopes: ['mcp:tools'], clientId: 'claude', name: 'ada' } };
  assert.deepEqual(await auth.authenticate(`Bearer ${token}`), expected);
  assert.deepEqual(await auth.authenticate(`Bearer ${token}`), expected);
  assert.equal(introspections() - before, 1);
});

test('the cache keeps an answer at most a minute, and never past the token\'s exp', async () => {
  let now = Date.now();
  const auth = authenticator({}, { now: () => now });
  const long = opaque(active({ exp: Math.floor(now / 1000) + 3600 }));
  const short = opaque(active({ exp: Math.floor(now / 1000) + 5 }));
  const start = introspections();
  assert.equal((await auth.authenticate(`Bearer ${long}`)).ok, true);
  assert.equal((await auth.authenticate(`Bearer ${short}`)).ok, true);
  now += 6_000;
  assert.equal((await auth.authenticate(`Bearer ${long}`)).ok, true);
  assert.equal(introspections() - start, 2, 'long is still cached');
  // short's cache entry ended at its exp: the server is asked, and its answer is now expired.
  assert.equal(refusal(await auth.authenticate(`Bearer ${short}`)).description, 'The access token has expired');
  assert.equal(introspections() - start, 3);
  now += 55_000;
  assert.equal((await auth.authenticate(`Bearer ${long}`)).ok, true);
  assert.equal(introspections() - start, 4, 'long is asked again after a minute');
});

test('inactive, unknown, another audience, no audience, another issuer, expired, no sub: 401 invalid_token, never cached', async () => {
  const auth = authenticator();
  const cases: [Record<string, unknown>, string][] = [
    [{ active: false }, 'The access token is not active'],
    [active({ aud: 'https://elsewhere.example.test/mcp' }), 'The access token was not issued for this resource'],
    [active({ aud: undefined }), 'The access token was not issued for this resource'],
    [active({ iss: 'https://other-issuer.example.test' }), 'The access token is not valid'],
    [active({ exp: seconds() - 5 }), 'The access token has expired'],
    [active({ nbf: seconds() + 60 }), 'The access token is not valid yet'],
    [active({ sub: undefined }), 'The access token is not valid'],
  ];
  for (const [answer, description] of cases) {
    const token = opaque(answer);
    const outcome = refusal(await auth.authenticate(`Bearer ${token}`));
    assert.equal(outcome.status, 401, JSON.stringify(answer));
    assert.equal(outcome.description, description, JSON.stringify(answer));
    assert.equal(outcome.wwwAuthenticate, `Bearer error="invalid_token", resource_metadata="${METADATA_URL}", error_description="${description}"`);
  }
  const before = introspections();
  await auth.authenticate('Bearer never-issued');
  await auth.authenticate('Bearer never-issued');
  assert.equal(introspections() - before, 2);
});

test('an audience list containing the resource (with a trailing slash) is accepted', async () => {
  const outcome = await authenticator().authenticate(`Bearer ${opaque(active({ aud: ['https://api.example.test', `${RESOURCE}/`] }))}`);
  assert.equal(outcome.ok, true);
});

test('a JWT-shaped value that is not a JWT goes to introspection', async () => {
  const token = 'abc.def.ghi';
  as.introspection.set(token, active());
  const before = introspections();
  assert.equal((await authenticator().authenticate(`Bearer ${token}`)).ok, true);
  assert.equal(introspections() - before, 1);
});

test('the endpoint comes from the issuer\'s metadata when the settings do not name it', async () => {
  const outcome = await authenticator({ endpoint: false }).authenticate(`Bearer ${opaque(active())}`);
  assert.equal(outcome.ok, true);
  assert.ok((as.hits.get('/.well-known/oauth-authorization-server') ?? 0) >= 1);
});

test('the gateway\'s own credentials refused: 503 (a misconfiguration no host can fix), logged without the token or the secret', async () => {
  const { logger, entries } = captureLog();
  const token = opaque(active());
  const outcome = refusal(await authenticator({ secret: 'wrong' }, { logger }).authenticate(`Bearer ${token}`));
  assert.equal(outcome.status, 503);
  assert.equal(outcome.error, 'temporarily_unavailable');
  const warning = entries.find((entry) => entry.level === 'warn');
  assert.match(String(warning?.fields?.['reason']), /client credentials/);
  const logged = JSON.stringify(entries);
  assert.equal(logged.includes(token), false);
  assert.equal(logged.includes('wrong'), false);
});

test('the endpoint failing or unreachable: 503', async () => {
  as.failing.add('introspection');
  try {
    assert.equal(refusal(await authenticator().authenticate(`Bearer ${opaque(active())}`)).status, 503);
  } finally {
    as.failing.delete('introspection');
  }
  const gone = await startTestAuthorizationServer();
  const endpoint = gone.introspectionEndpoint;
  await gone.close();
  const auth = createHostAuthenticator(
    { ...(settings() as Extract<HostAuthSettings, { kind: 'oauth' }>), introspection: { endpoint, clientId: 'gateway', clientSecret: SECRET } },
    { resource: RESOURCE, resourceMetadataUrl: METADATA_URL, logger: silentLogger },
  );
  assert.equal(refusal(await auth.authenticate('Bearer some-opaque-token')).status, 503);
});

test('the cache is bounded: past its size the oldest answer is dropped', async () => {
  const introspect = createIntrospector({
    endpoint: () => Promise.resolve(as.introspectionEndpoint),
    clientId: 'gateway',
    clientSecret: SECRET,
    issuer: as.issuer,
    audiences: [RESOURCE],
    clockToleranceMs: 0,
    fetch,
    now: Date.now,
    cacheSize: 2,
  });
  const [a, b, c] = [opaque(active()), opaque(active()), opaque(active())];
  const start = introspections();
  for (const token of [a, b, b, c, c, b]) assert.equal((await introspect(token)).ok, true);
  assert.equal(introspections() - start, 3, 'b and c stay cached');
  assert.equal((await introspect(a)).ok, true);
  assert.equal(introspections() - start, 4, 'a was dropped when c came in');
});
