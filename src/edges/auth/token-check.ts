/** @module What checking one access token found: its claims, a token to refuse (401), or a check that could not be made now (503). */

/** The outcome of a JWT or introspection check. `reason` is for the log, `description` for the host. */
export type TokenCheck =
  | { ok: true; claims: Record<string, unknown> }
  | { ok: false; kind: 'invalid'; reason: string; description: string }
  | { ok: false; kind: 'unavailable'; reason: string };

/** What a host is told about a refused token: enough to act on (refresh, ask for another audience), nothing about the gateway. */
export const TOKEN_DESCRIPTIONS = {
  invalid: 'The access token is not valid',
  expired: 'The access token has expired',
  notYetValid: 'The access token is not valid yet',
  audience: 'The access token was not issued for this resource',
  inactive: 'The access token is not active',
} as const;

export function invalidToken(reason: string, description: string = TOKEN_DESCRIPTIONS.invalid): TokenCheck {
  return { ok: false, kind: 'invalid', reason, description };
}

export function unavailable(reason: string): TokenCheck {
  return { ok: false, kind: 'unavailable', reason };
}

/** The message of anything thrown, for a log line. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
