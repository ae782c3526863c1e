/**
 * @module Scope arithmetic for upstream OAuth: which scope to ask for (the MCP scope selection strategy plus the
 * operator's choice), unions for step-up, and whether one scope string covers another.
 */

/** The distinct scope tokens of space-separated scope strings, in first-seen order. */
export function scopeTokens(...scopes: (string | undefined)[]): string[] {
  const seen = new Set<string>();
  for (const scope of scopes) for (const token of (scope ?? '').split(/\s+/)) if (token) seen.add(token);
  return [...seen];
}

/** The union of scope strings, or undefined when all are empty. */
export function scopeUnion(...scopes: (string | undefined)[]): string | undefined {
  const tokens = scopeTokens(...scopes);
  return tokens.length === 0 ? undefined : tokens.join(' ');
}

/** True when every token of `required` is in `held` (an empty `required` is always covered). */
export function scopeCovers(held: string | undefined, required: string | undefined): boolean {
  const have = new Set(scopeTokens(held));
  return scopeTokens(required).every((token) => have.has(token));
}

export interface ScopeSources {
  /** `scope` of the upstream's WWW-Authenticate challenge. */
  challenged?: string;
  /** What was asked for last time (kept on re-authorization, so a new token loses nothing). */
  previous?: string;
  /** `auth.scope` from the config. */
  configured?: string;
  /** `scopes_supported` of the protected resource metadata. */
  resourceScopes?: string[];
  /** `scopes_supported` of the authorization server metadata (for `offline_access`). */
  serverScopes?: string[];
}

/**
 * The scope of an authorization request: the challenge's scope (with what was asked before), else what was asked
 * before, else the configured scope, else every scope the resource supports, else none (the parameter is left
 * out). `offline_access` is added when the authorization server lists it, so a refresh token can be issued.
 */
export function selectScope(sources: ScopeSources): string | undefined {
  const base =
    sources.challenged !== undefined
      ? scopeUnion(sources.previous, sources.challenged)
      : (scopeUnion(sources.previous) ?? scopeUnion(sources.configured) ?? scopeUnion(...(sources.resourceScopes ?? [])));
  if (base === undefined) return undefined;
  return sources.serverScopes?.includes('offline_access') ? scopeUnion(base, 'offline_access') : base;
}
