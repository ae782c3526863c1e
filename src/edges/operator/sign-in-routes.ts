/**
 * @module The console's OpenID Connect sign-in as request handlers: /console/login sends the browser to the provider
 * (the transaction sealed in a short-lived cookie), /console/callback finishes it and sets the session cookie,
 * /console/logout clears it; GET /api/auth says which sign-ins exist, GET /api/session who is signed in.
 */

import type { Logger } from '../../core/log.js';
import type { OidcSignIn, SignInTransaction } from '../auth/operator-oidc.js';
import type { Sealer } from '../auth/operator-session-seal.js';
import { sealSession } from '../auth/operator-session-seal.js';
import { readCookie, setCookie } from './cookies.js';
import { checkCsrf } from './csrf.js';
import type { OperatorAuth, OperatorCredential } from './operator-auth.js';
import { SESSION_COOKIE } from './operator-auth.js';
import { jsonResponse, OperatorProblem } from './operator-errors.js';

/** The sign-in in progress: state, nonce, PKCE verifier. SameSite=Lax: the provider's redirect back is a cross-site navigation. */
export const SIGN_IN_COOKIE = 'switchboard_signin';
export const SIGN_IN_PATH = '/console/login';
export const CALLBACK_PATH = '/console/callback';
export const LOGOUT_PATH = '/console/logout';
/** How long a person may take at the provider's login page. */
const SIGN_IN_TTL_SECONDS = 600;

export interface SignInOptions {
  signIn: OidcSignIn;
  sealer: Sealer;
  auth: OperatorAuth;
  sessionTtlSeconds: number;
  /** Cookies only over https: everywhere but on a gateway that listens on loopback (without an https publicUrl). */
  secure: boolean;
  /** `http.publicUrl`: the callback URL is built on it; without it, on the request's own origin. */
  publicUrl?: string;
  logger: Logger;
}

export interface SignInRoutes {
  login(req: Request): Promise<Response>;
  callback(req: Request): Promise<Response>;
  logout(req: Request): Promise<Response>;
}

/** The gateway's own origins: the request's, and `http.publicUrl`'s. */
export function ownOrigins(req: Request, publicUrl: string | undefined): string[] {
  const origins = [new URL(req.url).origin];
  if (publicUrl !== undefined) origins.push(new URL(publicUrl).origin);
  return origins;
}

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The callback's answer: a page that moves on to /console by itself. A redirect would keep the browser inside the
 * provider's cross-site navigation, on which a SameSite=Strict cookie is not sent; this is a new, same-site one.
 */
function onwardPage(headers: Headers): Response {
  for (const [name, value] of Object.entries(HTML_HEADERS)) headers.set(name, value);
  const body = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/console"><title>Signed in</title></head><body><p>Signed in. <a href="/console">Continue to the console</a>.</p></body></html>';
  return new Response(body, { status: 200, headers });
}

function transactionFrom(payload: Record<string, unknown> | undefined): SignInTransaction | undefined {
  const tx = payload?.tx;
  if (typeof tx !== 'object' || tx === null) return undefined;
  const { state, nonce, verifier, redirectUri } = tx as Record<string, unknown>;
  if (typeof state !== 'string' || typeof nonce !== 'string' || typeof verifier !== 'string' || typeof redirectUri !== 'string') return undefined;
  return { state, nonce, verifier, redirectUri };
}

export function createSignInRoutes(options: SignInOptions): SignInRoutes {
  const { signIn, sealer, logger } = options;
  const cookie = (name: string, value: string, path: string, maxAge: number, sameSite: 'Strict' | 'Lax') => setCookie(name, value, { path, maxAge, sameSite, secure: options.secure });
  const clearSignIn = () => cookie(SIGN_IN_COOKIE, '', CALLBACK_PATH, 0, 'Lax');
  const failed = (message: string, reason?: string): OperatorProblem => {
    logger.log('warn', 'operator sign-in failed', { reason: reason ?? message });
    return new OperatorProblem('SIGN_IN_FAILED', message, { headers: { 'set-cookie': clearSignIn() } });
  };
  return {
    async login(req) {
      const base = options.publicUrl ?? new URL(req.url).origin;
      let begun: Awaited<ReturnType<OidcSignIn['begin']>>;
      try {
        begun = await signIn.begin(`${base}${CALLBACK_PATH}`);
      } catch (error) {
        logger.log('warn', 'operator sign-in: the OpenID provider cannot be reached', { error: error instanceof Error ? error.message : String(error) });
        throw new OperatorProblem('SIGN_IN_UNAVAILABLE', 'The OpenID provider cannot be reached now; try again shortly', { headers: { 'retry-after': '5' } });
      }
      const sealed = await sealer.seal({ tx: begun.transaction }, 'sign-in', SIGN_IN_TTL_SECONDS);
      const headers = new Headers({ location: begun.url.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      headers.append('set-cookie', cookie(SIGN_IN_COOKIE, sealed, CALLBACK_PATH, SIGN_IN_TTL_SECONDS, 'Lax'));
      return new Response(null, { status: 302, headers });
    },
    async callback(req) {
      const url = new URL(req.url);
      const sealed = readCookie(req.headers.get('cookie'), SIGN_IN_COOKIE);
      const transaction = transactionFrom(sealed === undefined ? undefined : await sealer.open(sealed, 'sign-in'));
      if (!transaction) throw failed('No sign-in is in progress in this browser (or it took longer than 10 minutes): sign in again');
      const error = url.searchParams.get('error');
      if (error !== null) throw failed(`The OpenID provider refused the sign-in: ${error.slice(0, 100)}`, `${error}: ${url.searchParams.get('error_description') ?? ''}`);
      // The URL the provider redirected to, as we sent it (the request's own host may be a proxy's view of it).
      const callbackUrl = new URL(transaction.redirectUri);
      callbackUrl.search = url.search;
      const result = await signIn.finish(callbackUrl, transaction).catch((failure: unknown) => ({ ok: false as const, reason: failure instanceof Error ? failure.message : String(failure) }));
      if (!result.ok) throw failed('The sign-in could not be verified: sign in again', result.reason);
      const session = await sealSession(sealer, result.operator, options.sessionTtlSeconds);
      logger.log('info', 'operator signed in', { issuer: result.operator.issuer, subject: result.operator.subject, groups: result.operator.groups.join(' ') });
      const headers = new Headers();
      headers.append('set-cookie', cookie(SESSION_COOKIE, session.cookie, '/', options.sessionTtlSeconds, 'Strict'));
      headers.append('set-cookie', clearSignIn());
      return onwardPage(headers);
    },
    async logout(req) {
      const credential = await options.auth.authenticate(req);
      if (credential.via === 'session') checkCsrf(req, credential.csrf, ownOrigins(req, options.publicUrl));
      const headers = new Headers({ 'cache-control': 'no-store' });
      headers.append('set-cookie', cookie(SESSION_COOKIE, '', '/', 0, 'Strict'));
      return new Response(null, { status: 204, headers });
    },
  };
}

/** GET /api/session: who is signed in, and for a console session the CSRF token its state changes must carry. */
export function sessionResponse(credential: OperatorCredential): Response {
  const { operator } = credential;
  return jsonResponse({
    issuer: operator.issuer,
    subject: operator.subject,
    name: operator.name ?? operator.subject,
    groups: operator.groups,
    via: credential.via,
    ...(credential.via === 'session' ? { csrf: credential.csrf, expiresAt: new Date(credential.expiresAt * 1000).toISOString() } : {}),
  });
}

/** GET /api/auth, for anyone: which sign-ins the console offers this client. */
export function authMethodsResponse(req: Request, auth: OperatorAuth): Response {
  return jsonResponse({ oidc: auth.oidc, token: auth.tokenAccepted(req), ...(auth.oidc ? { signIn: SIGN_IN_PATH } : {}) });
}
