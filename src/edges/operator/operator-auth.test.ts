/** @module Who an operator request is from: the shared token in each mode (everywhere, loopback, off), access tokens, the session cookie. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { tokenOperator } from '../../access/operator-principal.js';
import { createSealer, sealSession } from '../auth/operator-session-seal.js';
import type { OperatorTokenVerifier, TokenVerdict } from '../auth/operator-token-verifier.js';
import { noteRemoteAddress } from '../http/modern-principal.js';
import type { OperatorAuth } from './operator-auth.js';
import { createOperatorAuth, SESSION_COOKIE } from './operator-auth.js';
import { OperatorProblem } from './operator-errors.js';

const TOKEN = 'sb-op-0123456789abcdef-secret';
const ADA = { issuer: 'https://id.example', subject: 'ada', name: 'Ada', groups: ['desk-ops'], scopes: [] };

function request(headers: Record<string, string>, address?: string): Request {
  const req = new Request('http://gateway.example/api/questions', { headers });
  noteRemoteAddress(req, address);
  return req;
}

async function refused(auth: OperatorAuth, req: Request): Promise<{ code: string; message: string; status: number }> {
  try {
    await auth.authenticate(req);
  } catch (error) {
    assert.ok(error instanceof OperatorProblem);
    return { code: error.code, message: error.message, status: error.response.status };
  }
  assert.fail('accepted');
}

const verifierSaying = (verdict: TokenVerdict): OperatorTokenVerifier & { seen: string[] } => {
  const seen: string[] = [];
  return { seen, verify: async (token) => (seen.push(token), verdict) };
};

describe('operator authentication', () => {
  it('the shared token everywhere (no OpenID Connect): the operator is the label X-Switchboard-Operator gives', async () => {
    const auth = createOperatorAuth({ token: TOKEN });
    assert.deepEqual(await auth.authenticate(request({ authorization: `Bearer ${TOKEN}`, 'x-switchboard-operator': 'Ada L.' }, '10.1.2.3')), { via: 'token', operator: tokenOperator('Ada L.') });
    assert.equal((await refused(auth, request({ authorization: 'Bearer nope' }))).code, 'UNAUTHORIZED');
    assert.equal(auth.oidc, false);
  });

  it('loopback: the token is taken from this machine only; an unknown address is not this machine', async () => {
    const auth = createOperatorAuth({ token: TOKEN, tokenMode: 'loopback', oidc: { verifier: verifierSaying({ ok: false, unavailable: false, reason: 'no' }), sealer: createSealer(undefined) } });
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const credential = await auth.authenticate(request({ authorization: `Bearer ${TOKEN}`, 'x-switchboard-operator': 'mallory' }, address));
      assert.deepEqual(credential, { via: 'token', operator: tokenOperator('operator') }, 'with OpenID Connect the header names nobody');
    }
    for (const address of ['10.0.0.5', '::ffff:10.0.0.5', undefined]) {
      const refusal = await refused(auth, request({ authorization: `Bearer ${TOKEN}` }, address));
      assert.deepEqual([refusal.code, refusal.status], ['UNAUTHORIZED', 401]);
      assert.match(refusal.message, /from this machine only/);
    }
    assert.equal(auth.tokenAccepted(request({}, '127.0.0.1')), true);
    assert.equal(auth.tokenAccepted(request({}, '10.0.0.5')), false);
  });

  it('off: the token is refused everywhere, and not mistaken for an access token', async () => {
    const verifier = verifierSaying({ ok: true, operator: ADA });
    const auth = createOperatorAuth({ token: TOKEN, tokenMode: 'off', oidc: { verifier, sealer: createSealer(undefined) } });
    const refusal = await refused(auth, request({ authorization: `Bearer ${TOKEN}` }, '127.0.0.1'));
    assert.match(refusal.message, /not accepted/);
    assert.deepEqual(verifier.seen, [], 'the shared token never goes to the provider\'s verifier');
    assert.equal(auth.tokenAccepted(request({}, '127.0.0.1')), false);
  });

  it('an access token names the operator; a refused one is 401, an unreachable provider 503', async () => {
    const good = createOperatorAuth({ oidc: { verifier: verifierSaying({ ok: true, operator: ADA }), sealer: createSealer(undefined) } });
    assert.deepEqual(await good.authenticate(request({ authorization: 'Bearer eyJ.a.b', 'x-switchboard-operator': 'someone-else' })), { via: 'bearer', operator: ADA });
    const bad = createOperatorAuth({ oidc: { verifier: verifierSaying({ ok: false, unavailable: false, reason: 'unexpected "aud" claim value' }), sealer: createSealer(undefined) } });
    assert.match((await refused(bad, request({ authorization: 'Bearer eyJ.a.b' }))).message, /aud/);
    const down = createOperatorAuth({ oidc: { verifier: verifierSaying({ ok: false, unavailable: true, reason: 'timeout' }), sealer: createSealer(undefined) } });
    assert.deepEqual((({ code, status }) => ({ code, status }))(await refused(down, request({ authorization: 'Bearer eyJ.a.b' }))), { code: 'SIGN_IN_UNAVAILABLE', status: 503 });
    assert.equal(await down.isOperator(request({ authorization: 'Bearer eyJ.a.b' })), false);
    assert.equal(await good.isOperator(request({ authorization: 'Bearer eyJ.a.b' })), true);
  });

  it('the session cookie names the operator with its CSRF token; another instance with the same secret accepts it', async () => {
    const secret = 'shared-cookie-secret-of-the-whole-cluster';
    const { cookie, csrf } = await sealSession(createSealer(secret), ADA, 600);
    const auth = createOperatorAuth({ oidc: { verifier: verifierSaying({ ok: false, unavailable: false, reason: 'no' }), sealer: createSealer(secret) } });
    const credential = await auth.authenticate(request({ cookie: `other=1; ${SESSION_COOKIE}=${cookie}` }));
    assert.equal(credential.via, 'session');
    assert.deepEqual(credential.via === 'session' && [credential.operator, credential.csrf], [ADA, csrf]);
    const stranger = createOperatorAuth({ oidc: { verifier: verifierSaying({ ok: false, unavailable: false, reason: 'no' }), sealer: createSealer(undefined) } });
    assert.match((await refused(stranger, request({ cookie: `${SESSION_COOKIE}=${cookie}` }))).message, /expired/);
    assert.equal((await refused(createOperatorAuth({ token: TOKEN }), request({ cookie: `${SESSION_COOKIE}=${cookie}` }))).code, 'UNAUTHORIZED', 'no cookies without OpenID Connect');
  });
});
