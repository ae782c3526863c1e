/**
 * @module Operators' sign-in with OpenID Connect, over openid-client: discovery of the provider (retried in the
 * background, so a provider that is down at start does not keep the gateway down), the authorization request
 * (code + PKCE S256, state, nonce) and the callback (code exchange, ID token verified, the operator and their groups).
 */

import * as oidc from 'openid-client';

import type { Principal } from '../../access/principal.js';
import type { Logger } from '../../core/log.js';
import { claimList, principalFromClaims } from './token-claims.js';

export interface OidcSignInOptions {
  issuer: string;
  clientId: string;
  /** A confidential client's secret (client_secret_basic); absent: a public client (PKCE only). */
  clientSecret?: string;
  scopes: readonly string[];
  groupsClaim: string;
  logger: Logger;
  /** Each request to the provider (default 5 s). */
  timeoutMs?: number;
  /** The first wait before discovery is tried again after a failure; it doubles up to a minute (default 2 s). */
  retryMs?: number;
}

/** What the callback needs to finish one sign-in; kept by the browser in the sealed sign-in cookie. */
export interface SignInTransaction {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
}

export type SignInResult = { ok: true; operator: Principal } | { ok: false; reason: string };

export interface OidcSignIn {
  /** The provider's metadata, discovering it now when it is not known yet (rejects when the provider cannot be reached). */
  provider(): Promise<{ issuer: string; jwksUri: URL }>;
  /** The authorization URL to send the browser to, and what the callback will need. */
  begin(redirectUri: string): Promise<{ url: URL; transaction: SignInTransaction }>;
  /** Exchanges the code of `callbackUrl` (state, nonce and PKCE checked), verifies the ID token, and names the operator. */
  finish(callbackUrl: URL, transaction: SignInTransaction): Promise<SignInResult>;
  /** Stops retrying discovery. */
  close(): void;
}

const LOOPBACK_HOST = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/i;
const MAX_RETRY_MS = 60_000;

export function createOidcSignIn(options: OidcSignInOptions): OidcSignIn {
  const issuerUrl = new URL(options.issuer);
  const timeout = Math.ceil((options.timeoutMs ?? 5000) / 1000);
  let config: oidc.Configuration | undefined;
  let inFlight: Promise<oidc.Configuration> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = options.retryMs ?? 2000;
  let closed = false;

  const discoverOnce = async (): Promise<oidc.Configuration> => {
    const auth = options.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(options.clientSecret);
    // Plain http only to a provider on this machine (a development or test provider).
    const insecure = issuerUrl.protocol === 'http:' && LOOPBACK_HOST.test(issuerUrl.hostname);
    const discovered = await oidc.discovery(issuerUrl, options.clientId, options.clientSecret, auth, { timeout, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) });
    discovered.timeout = timeout;
    return discovered;
  };

  const discover = (): Promise<oidc.Configuration> => {
    if (config) return Promise.resolve(config);
    inFlight ??= discoverOnce().then(
      (found) => {
        config = found;
        inFlight = undefined;
        if (retryTimer) clearTimeout(retryTimer);
        options.logger.log('info', 'operator sign-in: OpenID provider discovered', { issuer: found.serverMetadata().issuer });
        return found;
      },
      (error: unknown) => {
        inFlight = undefined;
        throw error;
      },
    );
    return inFlight;
  };

  const keepTrying = (): void => {
    if (closed || config) return;
    discover().catch((error: unknown) => {
      options.logger.log('warn', 'operator sign-in: the OpenID provider cannot be discovered yet; sign-in answers 503 until it can', { issuer: options.issuer, retryInMs: retryMs, error: error instanceof Error ? error.message : String(error) });
      retryTimer = setTimeout(keepTrying, retryMs);
      retryTimer.unref();
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    });
  };
  keepTrying();

  return {
    async provider() {
      const found = await discover();
      const metadata = found.serverMetadata();
      if (metadata.jwks_uri === undefined) throw new Error('the provider\'s discovery document has no jwks_uri');
      return { issuer: metadata.issuer, jwksUri: new URL(metadata.jwks_uri) };
    },
    async begin(redirectUri) {
      const found = await discover();
      const verifier = oidc.randomPKCECodeVerifier();
      const transaction: SignInTransaction = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier, redirectUri };
      const url = oidc.buildAuthorizationUrl(found, {
        redirect_uri: redirectUri,
        scope: options.scopes.join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: transaction.state,
        nonce: transaction.nonce,
      });
      return { url, transaction };
    },
    async finish(callbackUrl, transaction) {
      const found = await discover();
      try {
        const tokens = await oidc.authorizationCodeGrant(found, callbackUrl, {
          pkceCodeVerifier: transaction.verifier,
          expectedState: transaction.state,
          expectedNonce: transaction.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (claims === undefined) return { ok: false, reason: 'the provider sent no ID token' };
        let groupsFrom: Record<string, unknown> = claims;
        // Some providers put groups in userinfo only.
        if (claims[options.groupsClaim] === undefined && found.serverMetadata().userinfo_endpoint !== undefined) {
          groupsFrom = await oidc.fetchUserInfo(found, tokens.access_token, claims.sub).catch(() => claims);
        }
        const operator = principalFromClaims({ ...claims, [options.groupsClaim]: groupsFrom[options.groupsClaim], scope: tokens.scope ?? '' }, found.serverMetadata().issuer, options.groupsClaim);
        if (!operator) return { ok: false, reason: 'the ID token names no subject' };
        return { ok: true, operator: { ...operator, scopes: claimList(tokens.scope ?? '') } };
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
    },
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
    },
  };
}
