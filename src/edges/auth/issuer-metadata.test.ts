/** @module Finding an issuer's metadata: the URLs tried, the issuer check, caching and the backoff after failures. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createIssuerMetadataSource, discoveryUrls, IssuerMetadataUnavailable, METADATA_TTL_MS } from './issuer-metadata.js';
import { startTestAuthorizationServer } from './testing/test-authorization-server.js';

test('the URLs: RFC 8414 then OpenID, inserted before a path, then OpenID appended', () => {
  assert.deepEqual(discoveryUrls('https://as.example'), ['https://as.example/.well-known/oauth-authorization-server', 'https://as.example/.well-known/openid-configuration']);
  assert.deepEqual(discoveryUrls('https://as.example/tenant/v2/'), [
    'https://as.example/.well-known/oauth-authorization-server/tenant/v2',
    'https://as.example/.well-known/openid-configuration/tenant/v2',
    'https://as.example/tenant/v2/.well-known/openid-configuration',
  ]);
});

test('metadata naming another issuer is not used', async () => {
  const server = await startTestAuthorizationServer();
  try {
    // Looked up as if the issuer had a trailing slash: the document names the issuer without it.
    const source = createIssuerMetadataSource({ issuer: `${server.issuer}/`, fetch, now: Date.now });
    await assert.rejects(source.get(), (error: unknown) => error instanceof IssuerMetadataUnavailable && /names another issuer/.test(error.message));
  } finally {
    await server.close();
  }
});

test('found metadata is kept for an hour, then looked up again; a failed refresh keeps the old one', async () => {
  const server = await startTestAuthorizationServer();
  try {
    let now = 0;
    const source = createIssuerMetadataSource({ issuer: server.issuer, fetch, now: () => now });
    const hits = () => server.hits.get('/.well-known/oauth-authorization-server') ?? 0;
    assert.deepEqual(await source.get(), { issuer: server.issuer, jwks_uri: server.jwksUri, introspection_endpoint: server.introspectionEndpoint });
    await Promise.all([source.get(), source.get()]);
    assert.equal(hits(), 1);
    now += METADATA_TTL_MS;
    server.failing.add('metadata');
    assert.equal((await source.get()).jwks_uri, server.jwksUri);
    assert.equal(hits(), 2);
    await source.get();
    assert.equal(hits(), 2, 'the failed refresh backs off');
  } finally {
    await server.close();
  }
});

test('the backoff doubles with each failure', async () => {
  const server = await startTestAuthorizationServer({ discovery: 'none' });
  try {
    let now = 0;
    const source = createIssuerMetadataSource({ issuer: server.issuer, fetch, now: () => now });
    const hits = () => server.hits.get('/.well-known/oauth-authorization-server') ?? 0;
    await assert.rejects(source.get(), IssuerMetadataUnavailable);
    now += 1_000;
    await assert.rejects(source.get(), IssuerMetadataUnavailable);
    assert.equal(hits(), 2);
    now += 1_999;
    await assert.rejects(source.get(), /next try in 1 s/);
    assert.equal(hits(), 2);
    now += 1;
    await assert.rejects(source.get(), IssuerMetadataUnavailable);
    assert.equal(hits(), 3);
  } finally {
    await server.close();
  }
});
