/** @module Who a host or an operator is once verified: the (issuer, subject) pair, with the groups and scopes their credential gave. */

/**
 * A verified identity. Two credentials naming one (issuer, subject) are one principal: a refreshed token is the same
 * host, a second browser is the same operator. Groups and scopes are what this credential grants, read fresh on each
 * request; they never decide who someone is.
 */
export interface Principal {
  /** The token issuer's identifier (`auth.hosts.issuer`), `api-key` for a configured key, `anonymous` without authentication. */
  readonly issuer: string;
  readonly subject: string;
  readonly groups: readonly string[];
  readonly scopes: readonly string[];
  /** The OAuth client the token was issued to (`client_id` / `azp`), when it says. */
  readonly clientId?: string;
  /** A name to show a person (`name`, `preferred_username` or `email`), when the credential has one. */
  readonly name?: string;
}

/** The issuer of a host principal authenticated by a configured API key. */
export const API_KEY_ISSUER = 'api-key';
/** The issuer of the principal of a host when `auth.hosts.type` is `none`. */
export const ANONYMOUS_ISSUER = 'anonymous';

/** The principal of every host when hosts do not authenticate (`auth.hosts.type: none`). */
export const ANONYMOUS: Principal = Object.freeze({ issuer: ANONYMOUS_ISSUER, subject: 'anonymous', groups: Object.freeze([]), scopes: Object.freeze([]) });

/** One string per (issuer, subject), unambiguous whatever either holds: what sessions, questions and handles are bound to. */
export function principalKey(principal: Pick<Principal, 'issuer' | 'subject'>): string {
  return JSON.stringify([principal.issuer, principal.subject]);
}

/** Whether two principals are the same identity (issuer and subject; groups and scopes may differ between tokens). */
export function samePrincipal(a: Pick<Principal, 'issuer' | 'subject'>, b: Pick<Principal, 'issuer' | 'subject'>): boolean {
  return a.issuer === b.issuer && a.subject === b.subject;
}

/** How the principal is named to a person and in the audit: `name <subject>` when a name is known, the subject alone otherwise, with the issuer. */
export function describePrincipal(principal: Principal): string {
  const who = principal.name !== undefined && principal.name !== principal.subject ? `${principal.name} <${principal.subject}>` : principal.subject;
  return principal.issuer === ANONYMOUS_ISSUER ? who : `${who} (${principal.issuer})`;
}
