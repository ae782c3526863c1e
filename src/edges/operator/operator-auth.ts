/**
 * @module Who an operator request comes from: the shared operator token (where `auth.operators.token` accepts it), an
 * access token of the OpenID provider (REST API, CLI), or the console's session cookie. Whichever it is, the operator
 * is a Principal; a request without one is refused 401 (503 while the provider cannot be reached to check a token).
 */

import { tokenOperator } from '../../access/operator-principal.js';
import type { Principal } from '../../access/principal.js';
import type { OperatorTokenVerifier } from '../auth/operator-token-verifier.js';
import type { Sealer } from '../auth/operator-session-seal.js';
import { openSession } from '../auth/operator-session-seal.js';
import { remoteAddressOf } from '../http/modern-principal.js';
import { createBearerCheck } from './bearer-auth.js';
import { readCookie } from './cookies.js';
import { OperatorProblem } from './operator-errors.js';
import { DEFAULT_OPERATOR, OPERATOR_HEADER, operatorName } from './operator-name.js';

/** The console's session cookie. */
export const SESSION_COOKIE = 'switchboard_session';

export type TokenMode = 'everywhere' | 'loopback' | 'off';

export type OperatorCredential =
  /** The shared token: the operator is the label `X-Switchboard-Operator` gives (without OpenID Connect). */
  | { via: 'token'; operator: Principal }
  /** An access token of the OpenID provider. */
  | { via: 'bearer'; operator: Principal }
  /** The console's session cookie, with the CSRF token bound to it. */
  | { via: 'session'; operator: Principal; csrf: string; expiresAt: number };

export interface OperatorAuthOptions {
  /** The shared operator token, when there is one. Never logged, never echoed. */
  token?: string;
  /** Where the shared token is accepted (default everywhere). */
  tokenMode?: TokenMode;
  /** With OpenID Connect: the bearer token verifier and the session cookies' sealer. */
  oidc?: { verifier: OperatorTokenVerifier; sealer: Sealer };
}

export interface OperatorAuth {
  /** Whether operators sign in with OpenID Connect. */
  readonly oidc: boolean;
  /** Whether the shared token is accepted from this request's client. */
  tokenAccepted(req: Request): boolean;
  /** The request's operator; throws the OperatorProblem to answer otherwise. */
  authenticate(req: Request): Promise<OperatorCredential>;
  /** Whether the request carries any operator credential (for /metrics and /healthz details). */
  isOperator(req: Request): Promise<boolean>;
}

const LOOPBACK_ADDRESS = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/i;

/** Whether the client address noted for `req` is this machine's (unknown: no). */
export function fromLoopback(req: Request): boolean {
  const address = remoteAddressOf(req);
  return address !== undefined && LOOPBACK_ADDRESS.test(address);
}

const unauthorized = (message: string): OperatorProblem => new OperatorProblem('UNAUTHORIZED', message, { headers: { 'www-authenticate': 'Bearer realm="switchboard"' } });

export function createOperatorAuth(options: OperatorAuthOptions): OperatorAuth {
  const mode: TokenMode = options.token === undefined ? 'off' : (options.tokenMode ?? 'everywhere');
  // The one constant-time check of the shared token (it refuses an empty token or one with white space).
  const sharedToken = options.token === undefined ? undefined : createBearerCheck(options.token);
  const { oidc } = options;
  const tokenAccepted = (req: Request): boolean => mode === 'everywhere' || (mode === 'loopback' && fromLoopback(req));
  const ask = oidc ? 'Sign in at /console/login, or send Authorization: Bearer <access token>' : 'Send Authorization: Bearer <operator token>';

  async function authenticate(req: Request): Promise<OperatorCredential> {
    const authorization = req.headers.get('authorization');
    if (authorization !== null) {
      const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
      const presented = match?.[1] ?? '';
      if (sharedToken?.(authorization) === true) {
        if (!tokenAccepted(req)) throw unauthorized(mode === 'loopback' ? 'The operator token is accepted from this machine only (auth.operators.token)' : `The operator token is not accepted (auth.operators.token is off). ${ask}`);
        // With OpenID Connect the header names nobody: only a verified identity does.
        const name = oidc ? DEFAULT_OPERATOR : operatorName(req.headers.get(OPERATOR_HEADER) ?? null);
        return { via: 'token', operator: tokenOperator(name) };
      }
      if (match === null || !oidc) throw unauthorized(ask);
      const verdict = await oidc.verifier.verify(presented);
      if (verdict.ok) return { via: 'bearer', operator: verdict.operator };
      if (verdict.unavailable) throw new OperatorProblem('SIGN_IN_UNAVAILABLE', 'The OpenID provider cannot be reached to check the token; try again shortly', { headers: { 'retry-after': '5' } });
      throw unauthorized(`The access token is not accepted: ${verdict.reason}`);
    }
    const cookie = oidc ? readCookie(req.headers.get('cookie'), SESSION_COOKIE) : undefined;
    const session = oidc && cookie !== undefined ? await openSession(oidc.sealer, cookie) : undefined;
    if (session) return { via: 'session', ...session };
    throw unauthorized(cookie === undefined ? ask : 'The console session has expired: sign in again');
  }

  return {
    oidc: oidc !== undefined,
    tokenAccepted,
    authenticate,
    async isOperator(req) {
      try {
        await authenticate(req);
        return true;
      } catch {
        return false;
      }
    },
  };
}
