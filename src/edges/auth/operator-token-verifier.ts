/**
 * @module Operators' bearer tokens for the REST API and CLI: JWT access tokens of the configured OpenID provider,
 * verified with jose over the provider's JWKS (from its discovery document): signature, `iss` exactly, `aud` =
 * `auth.operators.oidc.audience`, `exp`/`nbf`. The operator is the (issuer, subject) with the groups of `groupsClaim`.
 */

import { principalFromClaims } from './token-claims.js';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';

import type { Principal } from '../../access/principal.js';

/** Asymmetric algorithms only: no `none`, no HS* (a shared secret the gateway does not have). */
export const OPERATOR_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export interface OperatorTokenVerifierOptions {
  audience: string;
  groupsClaim: string;
  /** The provider's issuer identifier and jwks_uri, from its discovery document (rejects while it cannot be discovered). */
  provider(): Promise<{ issuer: string; jwksUri: URL }>;
  clockToleranceSeconds?: number;
  now?: () => Date;
}

export type TokenVerdict =
  | { ok: true; operator: Principal }
  /** `unavailable`: the provider or its keys could not be reached, so nothing can be said of the token. */
  | { ok: false; unavailable: boolean; reason: string };

export interface OperatorTokenVerifier {
  verify(token: string): Promise<TokenVerdict>;
}

/** Whether a failure says nothing about the token but that the keys could not be had (network, timeout, a JWKS that is not one). */
function keysUnreachable(error: unknown): boolean {
  return error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError);
}

export function createOperatorTokenVerifier(options: OperatorTokenVerifierOptions): OperatorTokenVerifier {
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  let keysAt: string | undefined;
  return {
    async verify(token) {
      let issuer: string;
      let jwksUri: URL;
      try {
        ({ issuer, jwksUri } = await options.provider());
      } catch (error) {
        return { ok: false, unavailable: true, reason: `the OpenID provider cannot be reached: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (keys === undefined || keysAt !== jwksUri.href) {
        keys = createRemoteJWKSet(jwksUri);
        keysAt = jwksUri.href;
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer,
          audience: options.audience,
          algorithms: OPERATOR_TOKEN_ALGORITHMS,
          requiredClaims: ['exp', 'sub'],
          clockTolerance: options.clockToleranceSeconds ?? 30,
          ...(options.now ? { currentDate: options.now() } : {}),
        }));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return keysUnreachable(error) ? { ok: false, unavailable: true, reason: `the provider's keys cannot be read: ${reason}` } : { ok: false, unavailable: false, reason };
      }
      const operator = principalFromClaims(payload, issuer, options.groupsClaim);
      return operator ? { ok: true, operator } : { ok: false, unavailable: false, reason: 'the token names no subject' };
    },
  };
}
