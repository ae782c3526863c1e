/** @module Who sent a host request, when hosts authenticate (`auth.hosts`): the check every host path runs first, the principal it found, and a session's owner checked against it. */

import type { Principal } from '../../access/principal.js';
import { describePrincipal, samePrincipal } from '../../access/principal.js';
import type { Logger } from '../../core/log.js';
import type { HttpErrorCode } from './status.js';
import { errorResponse } from './status.js';

/** What the edge needs of a host authenticator (edges/auth builds one from `auth.hosts`). */
export interface HostAuth {
  /** False when hosts do not authenticate (`none`): every request is the anonymous principal. */
  readonly enabled: boolean;
  authenticate(authorization: string | null): Promise<HostAuthResult>;
  /** The Protected Resource Metadata document (RFC 9728), when there is one (OAuth). */
  metadata(): Record<string, unknown> | undefined;
}

export type HostAuthResult =
  | { ok: true; principal: Principal }
  | { ok: false; status: 400 | 401 | 403 | 503; error?: string; description: string; wwwAuthenticate?: string };

/** Why a request was refused for who sent it (metrics label). */
export type IdentityRefusal = 'unauthenticated' | 'invalid-token' | 'insufficient-scope' | 'foreign-session' | 'foreign-handle';

/** The principal each authenticated request carries (web-standard Requests have no place of their own for it). */
const identities = new WeakMap<Request, Principal>();

/** The verified principal of `req`, when hosts authenticate and it was admitted. */
export function identityOf(req: Request): Principal | undefined {
  return identities.get(req);
}

const CODE_OF: Readonly<Record<number, HttpErrorCode>> = { 400: 'HOST_AUTH_MALFORMED', 401: 'HOST_UNAUTHORIZED', 403: 'INSUFFICIENT_SCOPE', 503: 'AUTH_UNAVAILABLE' };

/**
 * Authenticates a host request: undefined when it may go on (its principal noted for `identityOf`), else the
 * response refusing it (401 with the challenge naming the resource metadata, 403 insufficient_scope, 400, 503).
 */
export async function admitHost(auth: HostAuth | undefined, req: Request, refused?: (why: IdentityRefusal) => void): Promise<Response | undefined> {
  if (auth === undefined || !auth.enabled) return undefined;
  const result = await auth.authenticate(req.headers.get('authorization'));
  if (result.ok) {
    identities.set(req, result.principal);
    return undefined;
  }
  if (result.status !== 503) refused?.(result.status === 403 ? 'insufficient-scope' : req.headers.has('authorization') ? 'invalid-token' : 'unauthenticated');
  const headers: Record<string, string> = result.wwwAuthenticate === undefined ? {} : { 'www-authenticate': result.wwwAuthenticate };
  if (result.status === 503) headers['retry-after'] = '5';
  const what = result.status === 403 ? 'Forbidden' : result.status === 400 ? 'Bad Request' : result.status === 503 ? 'Service Unavailable' : 'Unauthorized';
  return errorResponse(CODE_OF[result.status] ?? 'HOST_UNAUTHORIZED', `${what}: ${result.description}`, { headers });
}

/** Who owns a session, and the check that a request for it comes from them. */
export class SessionOwner {
  readonly #principal: Principal | undefined;

  constructor(principal: Principal | undefined) {
    this.#principal = principal;
  }

  get principal(): Principal | undefined {
    return this.#principal;
  }

  /**
   * Whether `req` may use the session: always without authentication; else only its owner's (issuer, subject). A
   * foreign request is audited (a warn line, the metric) and gets what an unknown session gets, so a session id is
   * no oracle.
   */
  admits(req: Request, sessionId: string, logger: Logger, refused?: (why: IdentityRefusal) => void): boolean {
    const owner = this.#principal;
    const caller = identityOf(req);
    if (owner === undefined || caller === undefined || samePrincipal(owner, caller)) return true;
    logger.log('warn', 'a request named another principal\'s session', {
      audit: 'foreign-session',
      session: sessionId,
      principal: describePrincipal(caller),
      owner: describePrincipal(owner),
    });
    refused?.('foreign-session');
    return false;
  }
}
