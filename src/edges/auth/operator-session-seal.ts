/**
 * @module The console's stateless cookies, sealed: an encrypted JWT (jose, `dir` + A256GCM) whose key is derived (HKDF)
 * from `auth.operators.oidc.cookieSecret`, or from a random key of this process. Any instance that shares the secret
 * opens what another sealed, so a cluster needs no session table; tampering, another purpose's cookie, or an expired one opens to nothing.
 */

import { hkdfSync, randomBytes } from 'node:crypto';

import { EncryptJWT, jwtDecrypt } from 'jose';
import type { JWTPayload } from 'jose';

import type { Principal } from '../../access/principal.js';
import { systemClock } from '../../core/clock.js';

/** What a sealed value is for: its key and audience differ, so one never opens as the other. */
export type SealPurpose = 'session' | 'sign-in';

export interface Sealer {
  seal(payload: Record<string, unknown>, purpose: SealPurpose, ttlSeconds: number): Promise<string>;
  /** The payload, or undefined when the value was not sealed by this key for this purpose, was changed, or has expired. */
  open(sealed: string, purpose: SealPurpose): Promise<JWTPayload | undefined>;
}

/** The longest sealed value accepted: a cookie is at most about 4 KB. */
const MAX_SEALED_LENGTH = 8192;

/** `secret` absent: a random key of this process (sign-ins end when it stops, and other instances cannot open them). */
export function createSealer(secret: string | undefined, now: () => Date = systemClock.date): Sealer {
  const material = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  const keys = new Map<SealPurpose, Uint8Array>();
  const keyFor = (purpose: SealPurpose): Uint8Array => {
    let key = keys.get(purpose);
    if (key === undefined) {
      key = new Uint8Array(hkdfSync('sha256', material, 'switchboard operator cookies', `switchboard ${purpose} cookie`, 32));
      keys.set(purpose, key);
    }
    return key;
  };
  const audience = (purpose: SealPurpose) => `switchboard:${purpose}`;
  return {
    async seal(payload, purpose, ttlSeconds) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      return new EncryptJWT(payload)
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + Math.max(1, Math.floor(ttlSeconds)))
        .setAudience(audience(purpose))
        .encrypt(keyFor(purpose));
    },
    async open(sealed, purpose) {
      if (sealed.length === 0 || sealed.length > MAX_SEALED_LENGTH) return undefined;
      try {
        const { payload } = await jwtDecrypt(sealed, keyFor(purpose), {
          audience: audience(purpose),
          keyManagementAlgorithms: ['dir'],
          contentEncryptionAlgorithms: ['A256GCM'],
          requiredClaims: ['exp', 'iat'],
          currentDate: now(),
        });
        return payload;
      } catch {
        return undefined;
      }
    },
  };
}

/** A signed-in operator as the session cookie holds them, with the CSRF token bound to this sign-in. */
export interface OperatorSession {
  operator: Principal;
  csrf: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

const stringList = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...value] : undefined);

/** Seals a session for `operator` with a fresh CSRF token, for `ttlSeconds`. */
export async function sealSession(sealer: Sealer, operator: Principal, ttlSeconds: number): Promise<{ cookie: string; csrf: string }> {
  const csrf = randomBytes(32).toString('base64url');
  const op = { iss: operator.issuer, sub: operator.subject, groups: [...operator.groups], scopes: [...operator.scopes], ...(operator.name === undefined ? {} : { name: operator.name }) };
  return { cookie: await sealer.seal({ op, csrf }, 'session', ttlSeconds), csrf };
}

/** The session a cookie holds, or undefined (not ours, changed, expired, or of another shape). */
export async function openSession(sealer: Sealer, cookie: string): Promise<OperatorSession | undefined> {
  const payload = await sealer.open(cookie, 'session');
  const op = payload?.op;
  if (payload === undefined || typeof op !== 'object' || op === null || Array.isArray(op)) return undefined;
  const { iss, sub, name, groups, scopes } = op as Record<string, unknown>;
  const groupList = stringList(groups);
  const scopeList = stringList(scopes);
  if (typeof iss !== 'string' || typeof sub !== 'string' || groupList === undefined || scopeList === undefined || typeof payload.csrf !== 'string' || typeof payload.exp !== 'number') return undefined;
  const operator: Principal = { issuer: iss, subject: sub, groups: groupList, scopes: scopeList, ...(typeof name === 'string' ? { name } : {}) };
  return { operator, csrf: payload.csrf, expiresAt: payload.exp };
}
