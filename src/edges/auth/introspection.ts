/** @module Checks an opaque access token by RFC 7662 introspection (client_secret_basic), keeping positive answers for up to a minute. */

import { createHash } from 'node:crypto';

import { audienceList } from './token-claims.js';
import { invalidToken, messageOf, TOKEN_DESCRIPTIONS, unavailable } from './token-check.js';
import type { TokenCheck } from './token-check.js';

/** The longest an active answer is reused (less when the token expires sooner). */
export const INTROSPECTION_CACHE_MS = 60_000;
/** The most answers kept; the oldest goes first. */
export const INTROSPECTION_CACHE_SIZE = 1_000;
const FETCH_TIMEOUT_MS = 5_000;

export interface IntrospectionOptions {
  /** The endpoint (settings, or the issuer's metadata); may throw when that cannot be known now. */
  endpoint: () => Promise<string>;
  clientId: string;
  clientSecret: string;
  issuer: string;
  /** Any one of them must be in the answer's `aud`. */
  audiences: readonly string[];
  clockToleranceMs: number;
  fetch: typeof fetch;
  now: () => number;
  /** The most answers kept (default INTROSPECTION_CACHE_SIZE). */
  cacheSize?: number;
}

/** `application/x-www-form-urlencoded` of one value (RFC 6749 §2.3.1 encodes the client's id and secret this way before Basic). */
const formEncode = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);

/** The answer's checks beyond `active` (RFC 7662 §4 leaves them to the resource server). */
function checkAnswer(answer: Record<string, unknown>, options: IntrospectionOptions, now: number): TokenCheck {
  if (answer['active'] !== true) return invalidToken('introspection: not active', TOKEN_DESCRIPTIONS.inactive);
  if (answer['iss'] !== undefined && answer['iss'] !== options.issuer) return invalidToken('introspection: iss names another issuer');
  // The MCP spec demands the token be issued for this resource: an answer without `aud` cannot show that.
  const audiences = audienceList(answer['aud']);
  if (!audiences.some((aud) => options.audiences.includes(aud))) return invalidToken(audiences.length === 0 ? 'introspection: no aud' : 'introspection: aud names another resource', TOKEN_DESCRIPTIONS.audience);
  const exp = answer['exp'];
  if (exp !== undefined && (typeof exp !== 'number' || exp * 1000 <= now - options.clockToleranceMs)) return invalidToken('introspection: expired', TOKEN_DESCRIPTIONS.expired);
  const nbf = answer['nbf'];
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf * 1000 > now + options.clockToleranceMs)) return invalidToken('introspection: not valid yet (nbf)', TOKEN_DESCRIPTIONS.notYetValid);
  if (typeof answer['sub'] !== 'string' || answer['sub'] === '') return invalidToken('introspection: no sub');
  return { ok: true, claims: answer };
}

/** An introspector: `introspect(token)` never throws. */
export function createIntrospector(options: IntrospectionOptions): (token: string) => Promise<TokenCheck> {
  const authorization = `Basic ${Buffer.from(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`).toString('base64')}`;
  const cache = new Map<string, { claims: Record<string, unknown>; until: number }>();
  const cacheSize = options.cacheSize ?? INTROSPECTION_CACHE_SIZE;

  const ask = async (token: string): Promise<TokenCheck> => {
    let endpoint: string;
    try {
      endpoint = await options.endpoint();
    } catch (error) {
      return unavailable(messageOf(error));
    }
    let response: Response;
    try {
      response = await options.fetch(endpoint, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        redirect: 'manual',
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
    } catch (error) {
      return unavailable(`introspection at ${endpoint} failed: ${messageOf(error)}`);
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      // 401/403: the endpoint refuses the gateway's own client, a misconfiguration no host can fix.
      const why = response.status === 401 || response.status === 403 ? 'refused the gateway\'s client credentials (auth.hosts.introspection)' : `answered HTTP ${response.status}`;
      return unavailable(`introspection at ${endpoint} ${why}`);
    }
    let answer: unknown;
    try {
      answer = await response.json();
    } catch {
      return unavailable(`introspection at ${endpoint} answered something other than JSON`);
    }
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer) || typeof (answer as Record<string, unknown>)['active'] !== 'boolean') {
      return unavailable(`introspection at ${endpoint} answered without a boolean active`);
    }
    return checkAnswer(answer as Record<string, unknown>, options, options.now());
  };

  return async (token) => {
    const key = createHash('sha256').update(token, 'utf8').digest('hex');
    const now = options.now();
    const cached = cache.get(key);
    if (cached !== undefined) {
      if (now < cached.until) return { ok: true, claims: cached.claims };
      cache.delete(key);
    }
    const result = await ask(token);
    if (result.ok) {
      const exp = result.claims['exp'];
      const until = Math.min(now + INTROSPECTION_CACHE_MS, typeof exp === 'number' ? exp * 1000 : Infinity);
      if (until > now) {
        if (cache.size >= cacheSize) {
          for (const [entry, value] of cache) if (value.until <= now) cache.delete(entry);
          const oldest = cache.keys().next();
          if (cache.size >= cacheSize && oldest.done !== true) cache.delete(oldest.value);
        }
        cache.set(key, { claims: result.claims, until });
      }
    }
    return result;
  };
}
