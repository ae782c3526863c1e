/** @module Turns a verified token's claims (a JWT payload or an introspection answer) into the host's Principal. */

import type { Principal } from '../../access/principal.js';

/** A list claim: an array (its strings) or one space-separated string. */
export function claimList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(' ').filter((item) => item !== '');
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string' && item !== '');
  return [];
}

function firstString(claims: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = claims[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The names a principal is shown by, first found wins (`username` is RFC 7662's). */
const NAME_CLAIMS = ['name', 'preferred_username', 'email', 'username'] as const;

/**
 * The principal of `claims` issued by `issuer`, or undefined when there is no `sub` (a token that names nobody is
 * refused). Scopes come from `scope` (RFC 8693/9068, space-separated) or else `scp` (a list, or Entra's string);
 * the client from `client_id` or else `azp`.
 */
export function principalFromClaims(claims: Record<string, unknown>, issuer: string, groupsClaim: string): Principal | undefined {
  const subject = claims['sub'];
  if (typeof subject !== 'string' || subject === '') return undefined;
  const clientId = firstString(claims, ['client_id', 'azp']);
  const name = firstString(claims, NAME_CLAIMS);
  return {
    issuer,
    subject,
    groups: claimList(claims[groupsClaim]),
    scopes: claims['scope'] !== undefined ? claimList(claims['scope']) : claimList(claims['scp']),
    ...(clientId === undefined ? {} : { clientId }),
    ...(name === undefined ? {} : { name }),
  };
}

/** The audiences a token's `aud` names (a string or a list). */
export function audienceList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}
