/**
 * @module Composes how operators authenticate, from `auth.operators`: the shared token where it is accepted, and with
 * OpenID Connect the sign-in (discovered in the background), the session cookies' sealer and the access-token verifier.
 */

import type { ListenAddress, NormalizedConfig } from '../config/types.js';
import type { Logger } from '../core/log.js';
import type { OidcSignIn } from '../edges/auth/operator-oidc.js';
import { createOidcSignIn } from '../edges/auth/operator-oidc.js';
import { createSealer } from '../edges/auth/operator-session-seal.js';
import { createOperatorTokenVerifier } from '../edges/auth/operator-token-verifier.js';
import type { OperatorAuth } from '../edges/operator/operator-auth.js';
import { createOperatorAuth } from '../edges/operator/operator-auth.js';
import type { SignInRoutes } from '../edges/operator/sign-in-routes.js';
import { createSignInRoutes } from '../edges/operator/sign-in-routes.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i;

export interface OperatorAccess {
  auth: OperatorAuth;
  signIn?: SignInRoutes;
  close(): void;
}

/** Whether the console's cookies must be Secure: unless the gateway listens on loopback (and its public URL, if any, is not https). */
export function secureCookies(listen: ListenAddress, publicUrl: string | undefined): boolean {
  return !LOOPBACK.test(listen.host) || publicUrl?.startsWith('https:') === true;
}

export function createOperatorAccess(config: NormalizedConfig, token: string | undefined, options: { listen: ListenAddress; logger: Logger }): OperatorAccess {
  const { oidc, token: tokenMode } = config.auth.operators;
  const shared = token === undefined ? {} : { token, tokenMode };
  if (oidc === undefined) return { auth: createOperatorAuth(shared), close: () => undefined };
  if (oidc.cookieSecret === undefined) {
    options.logger.log('warn', 'auth.operators.oidc.cookieSecret is not set: console sign-ins end when this process stops, and other instances do not accept them');
  }
  const signIn: OidcSignIn = createOidcSignIn({
    issuer: oidc.issuer,
    clientId: oidc.clientId,
    ...(oidc.clientSecret === undefined ? {} : { clientSecret: oidc.clientSecret }),
    scopes: oidc.scopes,
    groupsClaim: oidc.groupsClaim,
    logger: options.logger,
  });
  const sealer = createSealer(oidc.cookieSecret);
  const verifier = createOperatorTokenVerifier({ audience: oidc.audience, groupsClaim: oidc.groupsClaim, provider: () => signIn.provider() });
  const auth = createOperatorAuth({ ...shared, oidc: { verifier, sealer } });
  const publicUrl = config.http.publicUrl;
  const routes = createSignInRoutes({
    signIn,
    sealer,
    auth,
    sessionTtlSeconds: Math.max(1, Math.floor(oidc.sessionTtlMs / 1000)),
    secure: secureCookies(options.listen, publicUrl),
    ...(publicUrl === undefined ? {} : { publicUrl }),
    logger: options.logger,
  });
  return { auth, signIn: routes, close: () => signIn.close() };
}
