/** @module Operators' access tokens checked against a JWKS served on a real loopback socket: who they name, and every way one is refused. */

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';

import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWTPayload } from 'jose';

import { closedPort } from '../../core/testing/closed-port.js';
import { createOperatorTokenVerifier } from './operator-token-verifier.js';

const ISSUER = 'https://id.example';
const AUDIENCE = 'switchboard-operators';

describe('operator access tokens', () => {
  let privateKey: CryptoKey;
  let strangerKey: CryptoKey;
  let jwksUri: URL;
  let fetches = 0;
  const server = createServer();

  before(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    strangerKey = (await generateKeyPair('ES256')).privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    server.on('request', (_req, res) => {
      fetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUri = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const sign = (claims: JWTPayload, options: { key?: CryptoKey; expiresIn?: string | number; issuer?: string; audience?: string; kid?: string } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? 'k1', typ: 'at+jwt' })
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m')
      .sign(options.key ?? privateKey);
  const verifier = () => createOperatorTokenVerifier({ audience: AUDIENCE, groupsClaim: 'roles', provider: async () => ({ issuer: ISSUER, jwksUri }) });

  it('names the operator: (issuer, subject), the groups of the configured claim, the scopes, a name', async () => {
    const token = await sign({ sub: 'ada', roles: ['desk-ops', 'billing'], scope: 'openid switchboard', preferred_username: 'ada.l', client_id: 'cli' });
    assert.deepEqual(await verifier().verify(token), {
      ok: true,
      operator: { issuer: ISSUER, subject: 'ada', groups: ['desk-ops', 'billing'], scopes: ['openid', 'switchboard'], name: 'ada.l', clientId: 'cli' },
    });
    assert.deepEqual(await verifier().verify(await sign({ sub: 'ben', roles: 'a b' })).then((v) => v.ok && v.operator.groups), ['a', 'b'], 'a space-separated claim');
  });

  it('refuses another audience, another issuer, an expired token, a stranger\'s signature, a symmetric one, no subject, and garbage', async () => {
    const check = verifier();
    const refused = async (token: string, why: RegExp) => {
      const verdict = await check.verify(token);
      assert.equal(verdict.ok, false, why.source);
      assert.ok(!verdict.ok && !verdict.unavailable && why.test(verdict.reason), `${why.source}: ${!verdict.ok ? verdict.reason : ''}`);
    };
    await refused(await sign({ sub: 'ada' }, { audience: 'another-api' }), /aud/);
    await refused(await sign({ sub: 'ada' }, { issuer: 'https://evil.example' }), /iss/);
    await refused(await sign({ sub: 'ada' }, { expiresIn: Math.floor(Date.now() / 1000) - 120 }), /exp/);
    await refused(await sign({ sub: 'ada' }, { key: strangerKey }), /signature/);
    await refused(await sign({ sub: 'ada' }, { kid: 'unknown' }), /no applicable key|matching/i);
    const hs = await new SignJWT({ sub: 'ada' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').sign(new Uint8Array(32));
    await refused(hs, /alg/);
    await refused(await sign({}), /sub/);
    await refused('not.a.jwt', /JWS|Invalid/i);
  });

  it('says "unavailable" (not "refused") when the provider or its keys cannot be reached', async () => {
    const token = await sign({ sub: 'ada' });
    const down = createOperatorTokenVerifier({ audience: AUDIENCE, groupsClaim: 'groups', provider: async () => { throw new Error('discovery failed'); } });
    const verdict = await down.verify(token);
    assert.deepEqual(verdict.ok === false && verdict.unavailable, true);
    const port = await closedPort();
    const noKeys = createOperatorTokenVerifier({ audience: AUDIENCE, groupsClaim: 'groups', provider: async () => ({ issuer: ISSUER, jwksUri: new URL(`http://127.0.0.1:${port}/jwks`) }) });
    const gone = await noKeys.verify(token);
    assert.ok(!gone.ok && gone.unavailable, !gone.ok ? gone.reason : '');
    assert.ok(fetches > 0);
  });
});
