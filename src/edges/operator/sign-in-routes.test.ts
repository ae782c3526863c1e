/** @module The console's sign-in routes over a stand-in provider: the transaction cookie, the callback's checks, the session cookie's attributes, sign-out with CSRF. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { silentLogger } from '../../core/log.js';
import type { OidcSignIn, SignInTransaction } from '../auth/operator-oidc.js';
import { createSealer } from '../auth/operator-session-seal.js';
import { createOperatorAuth, SESSION_COOKIE } from './operator-auth.js';
import { OperatorProblem } from './operator-errors.js';
import { createSignInRoutes, SIGN_IN_COOKIE } from './sign-in-routes.js';

const ADA = { issuer: 'https://id.example', subject: 'ada', name: 'Ada', groups: ['desk-ops'], scopes: ['openid'] };

function provider(options: { down?: boolean } = {}): OidcSignIn & { finished: { url: string; tx: SignInTransaction }[] } {
  const finished: { url: string; tx: SignInTransaction }[] = [];
  return {
    finished,
    provider: async () => ({ issuer: 'https://id.example', jwksUri: new URL('https://id.example/jwks') }),
    begin: async (redirectUri) => {
      if (options.down) throw new Error('connect ECONNREFUSED');
      return { url: new URL(`https://id.example/authorize?state=s1&redirect_uri=${encodeURIComponent(redirectUri)}`), transaction: { state: 's1', nonce: 'n1', verifier: 'v1', redirectUri } };
    },
    finish: async (url, tx) => {
      finished.push({ url: url.href, tx });
      return url.searchParams.get('code') === 'good' ? { ok: true, operator: ADA } : { ok: false, reason: 'invalid_grant' };
    },
    close: () => undefined,
  };
}

function setup(options: { secure?: boolean; down?: boolean } = {}) {
  const sealer = createSealer(undefined);
  const signIn = provider(options);
  const auth = createOperatorAuth({ oidc: { verifier: { verify: async () => ({ ok: false, unavailable: false, reason: 'no' }) }, sealer } });
  const routes = createSignInRoutes({ signIn, sealer, auth, sessionTtlSeconds: 3600, secure: options.secure ?? false, logger: silentLogger });
  return { routes, signIn, sealer };
}

const cookiePair = (setCookie: string) => setCookie.split(';')[0] ?? '';

async function problem(run: Promise<Response>): Promise<OperatorProblem> {
  try {
    await run;
  } catch (error) {
    assert.ok(error instanceof OperatorProblem);
    return error;
  }
  assert.fail('answered');
}

describe('console sign-in routes', () => {
  it('login sends the browser to the provider with the sign-in sealed in a Lax cookie scoped to the callback; the callback sets a Strict session cookie and moves on by a page', async () => {
    const { routes, signIn } = setup();
    const login = await routes.login(new Request('http://127.0.0.1:3939/console/login'));
    assert.equal(login.status, 302);
    assert.match(login.headers.get('location') ?? '', /^https:\/\/id\.example\/authorize\?.*redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A3939%2Fconsole%2Fcallback/);
    const txCookie = login.headers.get('set-cookie') ?? '';
    assert.match(txCookie, new RegExp(`^${SIGN_IN_COOKIE}=[^;]+; Path=/console/callback; Max-Age=600; HttpOnly; SameSite=Lax$`));
    const callback = await routes.callback(new Request('http://127.0.0.1:3939/console/callback?code=good&state=s1', { headers: { cookie: cookiePair(txCookie) } }));
    assert.equal(callback.status, 200);
    assert.deepEqual(signIn.finished.map((f) => [f.url, f.tx.verifier]), [['http://127.0.0.1:3939/console/callback?code=good&state=s1', 'v1']]);
    const set = callback.headers.getSetCookie();
    assert.match(set[0] ?? '', new RegExp(`^${SESSION_COOKIE}=[^;]+; Path=/; Max-Age=3600; HttpOnly; SameSite=Strict$`), 'no Secure on loopback');
    assert.match(set[1] ?? '', new RegExp(`^${SIGN_IN_COOKIE}=; Path=/console/callback; Max-Age=0`), 'the sign-in cookie is cleared');
    const page = await callback.text();
    assert.match(page, /<meta http-equiv="refresh" content="0;url=\/console">/);
    assert.match(callback.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  });

  it('Secure cookies off loopback', async () => {
    const { routes } = setup({ secure: true });
    const login = await routes.login(new Request('https://ops.example/console/login'));
    assert.match(login.headers.get('set-cookie') ?? '', /; Secure$/);
  });

  it('the callback refuses without its sign-in cookie, with an error from the provider, or a code that does not verify', async () => {
    const { routes } = setup();
    const login = await routes.login(new Request('http://127.0.0.1:3939/console/login'));
    const cookie = cookiePair(login.headers.get('set-cookie') ?? '');
    const noCookie = await problem(routes.callback(new Request('http://127.0.0.1:3939/console/callback?code=good&state=s1')));
    assert.deepEqual([noCookie.code, noCookie.response.status], ['SIGN_IN_FAILED', 400]);
    assert.match((await problem(routes.callback(new Request('http://127.0.0.1:3939/console/callback?error=access_denied', { headers: { cookie } })))).message, /access_denied/);
    assert.equal((await problem(routes.callback(new Request('http://127.0.0.1:3939/console/callback?code=bad&state=s1', { headers: { cookie } })))).code, 'SIGN_IN_FAILED');
    const forged = await problem(routes.callback(new Request('http://127.0.0.1:3939/console/callback?code=good&state=s1', { headers: { cookie: `${SIGN_IN_COOKIE}=forged.value` } })));
    assert.equal(forged.code, 'SIGN_IN_FAILED');
  });

  it('login answers 503 while the provider cannot be reached', async () => {
    const { routes } = setup({ down: true });
    const refusal = await problem(routes.login(new Request('http://127.0.0.1:3939/console/login')));
    assert.deepEqual([refusal.code, refusal.response.status, refusal.response.headers.get('retry-after')], ['SIGN_IN_UNAVAILABLE', 503, '5']);
  });

  it('sign-out clears the session cookie, with the session\'s CSRF token only', async () => {
    const { routes } = setup();
    const login = await routes.login(new Request('http://127.0.0.1:3939/console/login'));
    const callback = await routes.callback(new Request('http://127.0.0.1:3939/console/callback?code=good&state=s1', { headers: { cookie: cookiePair(login.headers.get('set-cookie') ?? '') } }));
    const session = cookiePair(callback.headers.getSetCookie()[0] ?? '');
    assert.equal((await problem(routes.logout(new Request('http://127.0.0.1:3939/console/logout', { method: 'POST', headers: { cookie: session } })))).code, 'CSRF_REJECTED');
    assert.equal((await problem(routes.logout(new Request('http://127.0.0.1:3939/console/logout', { method: 'POST' })))).code, 'UNAUTHORIZED');
  });
});
