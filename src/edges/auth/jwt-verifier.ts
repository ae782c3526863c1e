/** @module Verifies a JWT access token (RFC 9068) with jose against the issuer's JWKS: signature, algorithm, typ, iss, aud, exp, nbf, sub. */

import { createRemoteJWKSet, customFetch, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { JWTVerifyGetKey, RemoteJWKSet } from 'jose';

import { invalidToken, messageOf, TOKEN_DESCRIPTIONS, unavailable } from './token-check.js';
import type { TokenCheck } from './token-check.js';

/** The `typ` values accepted (compared without case): RFC 9068's `at+jwt`, the generic `JWT`, or none at all. */
const ACCEPTED_TYPS = new Set(['at+jwt', 'application/at+jwt', 'jwt', 'application/jwt']);

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Whether `token` is a compact JWS at all (three base64url segments whose header is JSON naming an `alg`). */
export function looksLikeJwt(token: string): boolean {
  if (!JWT_SHAPE.test(token)) return false;
  try {
    return typeof decodeProtectedHeader(token).alg === 'string';
  } catch {
    return false;
  }
}

/** Algorithms a JWT access token may be signed with: the configured ones minus anything symmetric or unsigned. */
export function asymmetricAlgorithms(algorithms: readonly string[]): string[] {
  const kept = algorithms.filter((alg) => alg !== 'none' && !/^HS/i.test(alg));
  if (kept.length === 0) throw new Error('auth.hosts.algorithms must name at least one asymmetric algorithm (no none, no HS*)');
  return kept;
}

export interface JwtVerifierOptions {
  issuer: string;
  /** Any one of them must be in `aud`. */
  audiences: readonly string[];
  algorithms: readonly string[];
  clockToleranceMs: number;
  /** Where the keys are (settings, or the issuer's metadata); may throw when that cannot be known now. */
  jwksUri: () => Promise<string>;
  fetch?: typeof fetch;
  now: () => number;
  /** How soon after fetching the keys an unknown `kid` may fetch them again (jose's default: 30 s). */
  jwksCooldownMs?: number;
}

/** Thrown by the key lookup when the keys cannot be had (as opposed to: the token names no key we have). */
class KeysUnavailable extends Error {
  override readonly name = 'KeysUnavailable';
}

/** Errors of the key lookup that are the token's fault: it names no key, or one jose cannot use for its `alg`. */
const TOKEN_KEY_ERRORS = new Set([errors.JWKSNoMatchingKey.code, errors.JWKSMultipleMatchingKeys.code, errors.JOSENotSupported.code]);

function classify(error: unknown): TokenCheck {
  if (error instanceof KeysUnavailable) return unavailable(error.message);
  if (error instanceof errors.JWTExpired) return invalidToken('expired', TOKEN_DESCRIPTIONS.expired);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return invalidToken('not valid yet (nbf)', TOKEN_DESCRIPTIONS.notYetValid);
    if (error.claim === 'aud') return invalidToken('aud names another resource', TOKEN_DESCRIPTIONS.audience);
    return invalidToken(`claim ${error.claim}: ${error.reason}`);
  }
  if (error instanceof errors.JOSEError) return invalidToken(`${error.code}: ${error.message}`);
  return invalidToken(`unreadable: ${messageOf(error)}`);
}

/** A verifier for one issuer: `verify(token)` never throws. */
export function createJwtVerifier(options: JwtVerifierOptions): (token: string) => Promise<TokenCheck> {
  const algorithms = asymmetricAlgorithms(options.algorithms);
  const keySets = new Map<string, RemoteJWKSet>();
  const keySetFor = (uri: string): RemoteJWKSet => {
    let set = keySets.get(uri);
    if (set === undefined) {
      set = createRemoteJWKSet(new URL(uri), {
        ...(options.jwksCooldownMs === undefined ? {} : { cooldownDuration: options.jwksCooldownMs }),
        ...(options.fetch === undefined ? {} : { [customFetch]: options.fetch }),
      });
      keySets.set(uri, set);
    }
    return set;
  };
  const keys: JWTVerifyGetKey = async (header, token) => {
    let uri: string;
    try {
      uri = await options.jwksUri();
    } catch (error) {
      throw new KeysUnavailable(messageOf(error));
    }
    try {
      return await keySetFor(uri)(header, token);
    } catch (error) {
      if (error instanceof errors.JOSEError && TOKEN_KEY_ERRORS.has(error.code)) throw error;
      throw new KeysUnavailable(`the keys at ${uri} cannot be read: ${messageOf(error)}`);
    }
  };

  return async (token) => {
    let typ: unknown;
    try {
      typ = decodeProtectedHeader(token).typ;
    } catch (error) {
      return classify(error);
    }
    if (typ !== undefined && (typeof typ !== 'string' || !ACCEPTED_TYPS.has(typ.toLowerCase()))) return invalidToken(`typ ${JSON.stringify(typ).slice(0, 40)} is not an access token's`);
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: [...options.audiences],
        algorithms,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: options.clockToleranceMs / 1000,
        currentDate: new Date(options.now()),
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') return invalidToken('sub is not a non-empty string');
      return { ok: true, claims: payload as Record<string, unknown> };
    } catch (error) {
      return classify(error);
    }
  };
}
