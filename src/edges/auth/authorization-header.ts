/** @module Reads `Authorization` for a Bearer token (RFC 6750 §2.1, RFC 9110 §11.4): absent, another scheme, malformed, or the token. */

/** What the header holds, as far as a Bearer resource server cares. */
export type BearerCredential =
  | { kind: 'absent' }
  /** Another scheme (`Basic ...`) or no scheme at all: RFC 6750 §3.1 answers it as if nothing had been sent. */
  | { kind: 'otherScheme' }
  | { kind: 'malformed'; reason: string }
  | { kind: 'bearer'; token: string };

const SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:[ \t]+(.*))?$/s;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The Bearer token of an `Authorization` value. The scheme is matched in any case; spaces (and, leniently, tabs)
 * may separate it from the token and surround the value. `token68` demands the RFC 6750 `b64token` syntax (OAuth
 * access tokens); `nonBlank` accepts any token without white space (configured API keys, whatever they hold).
 */
export function readBearer(authorization: string | null, syntax: 'token68' | 'nonBlank'): BearerCredential {
  if (authorization === null) return { kind: 'absent' };
  const value = authorization.replace(/^[ \t]+|[ \t]+$/g, '');
  if (value === '') return { kind: 'absent' };
  const match = SCHEME.exec(value);
  if (match === null || match[1]?.toLowerCase() !== 'bearer') return { kind: 'otherScheme' };
  const token = match[2] ?? '';
  if (token === '') return { kind: 'malformed', reason: 'the Bearer credentials are empty' };
  if (/\s/.test(token)) return { kind: 'malformed', reason: 'the Bearer credentials hold white space' };
  if (syntax === 'token68' && !TOKEN68.test(token)) return { kind: 'malformed', reason: 'the Bearer token has characters a token cannot hold' };
  return { kind: 'bearer', token };
}
