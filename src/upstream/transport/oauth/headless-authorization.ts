/**
 * @module The authorization step without a browser: request the authorization URL, follow its redirects by hand,
 * and take the code from the one that lands on our redirect URI. A page instead of a redirect means the
 * authorization server wants a person (sign-in, consent): that is reported with the URL they would open.
 */

import { LocalError } from '../../../core/errors/local.js';
import type { FetchLike } from '@modelcontextprotocol/client';

export interface AuthorizationResponse {
  code: string;
  /** RFC 9207 `iss`, when the authorization server sent one (checked before the code is redeemed). */
  iss: string | undefined;
}

/** Why no code came back: a person is needed (`authorizationUrl` is where), or the server refused. */
export class HeadlessAuthorizationError extends LocalError {
  override name = 'HeadlessAuthorizationError';
  override readonly code = 'oauth-headless-authorization';
  readonly needsPerson: boolean;
  readonly authorizationUrl: string;

  constructor(message: string, options: { needsPerson: boolean; authorizationUrl: string }) {
    super(message);
    this.needsPerson = options.needsPerson;
    this.authorizationUrl = options.authorizationUrl;
  }
}

const MAX_REDIRECTS = 10;
/** Authorization errors (OpenID Connect Core 3.1.2.6) that say a person must act, not that the request is wrong. */
const INTERACTION_ERRORS = new Set(['login_required', 'consent_required', 'interaction_required', 'account_selection_required']);

export async function authorizeHeadless(authorizationUrl: URL, redirectUrl: string, state: string, fetchFn: FetchLike): Promise<AuthorizationResponse> {
  const start = authorizationUrl.href;
  const fail = (message: string, needsPerson: boolean): HeadlessAuthorizationError => new HeadlessAuthorizationError(message, { needsPerson, authorizationUrl: start });
  let current = authorizationUrl;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    const response = await fetchFn(current, { method: 'GET', redirect: 'manual', headers: { accept: 'text/html, application/json;q=0.9' } });
    const location = response.headers.get('location');
    await response.body?.cancel().catch(() => undefined);
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, current);
      if (isRedirectUri(next, redirectUrl)) return readCallback(next, state, fail);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw fail(`the authorization server redirected to ${next.protocol} URL, not to the redirect URI`, true);
      current = next;
      continue;
    }
    if (response.ok) {
      const where = current.href === start ? '' : ` (at ${current.href})`;
      throw fail(`the authorization server shows a page${where} instead of redirecting back: it wants a person to sign in or consent`, true);
    }
    throw fail(`the authorization server answered ${current.href} with HTTP ${response.status}`, false);
  }
  throw fail(`the authorization server redirected more than ${MAX_REDIRECTS} times without reaching the redirect URI`, false);
}

/** Same origin and path as the redirect URI (its query, if any, is kept by the server and ignored here). */
function isRedirectUri(url: URL, redirectUrl: string): boolean {
  const target = new URL(redirectUrl);
  return url.origin === target.origin && url.pathname === target.pathname;
}

function readCallback(url: URL, state: string, fail: (message: string, needsPerson: boolean) => HeadlessAuthorizationError): AuthorizationResponse {
  const params = url.searchParams;
  if (params.get('state') !== state) throw fail('the redirect back carried a state that is not ours: refusing its code', false);
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    throw fail(`the authorization server refused: ${error}${description ? ` (${description})` : ''}`, INTERACTION_ERRORS.has(error));
  }
  const code = params.get('code');
  if (!code) throw fail('the redirect back carried neither a code nor an error', false);
  return { code, iss: params.get('iss') ?? undefined };
}
