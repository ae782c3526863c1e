/** @module The `WWW-Authenticate: Bearer` challenge (RFC 6750 §3, RFC 9110 §11.6.1, RFC 9728 §5.1), with every value safely quoted. */

/** The attributes of one Bearer challenge, written in the order the object holds them. */
export interface BearerChallenge {
  realm?: string;
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  error_description?: string;
  scope?: string;
  resource_metadata?: string;
}

/** An RFC 9110 quoted-string: `"` and `\` escaped, control characters (which it cannot hold) replaced by a space. */
export function quotedString(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.charCodeAt(0);
    out += (code < 0x20 && char !== '\t') || code === 0x7f ? ' ' : char === '"' || char === '\\' ? `\\${char}` : char;
  }
  return `"${out}"`;
}

/**
 * An `error_description` as RFC 6750 §3 allows it: printable ASCII without `"` and `\` (%x20-21 / %x23-5B / %x5D-7E).
 * A quote becomes `'`, anything else outside the set `?`, so the value never needs an escape.
 */
export function descriptionText(value: string): string {
  return value.replace(/"/g, "'").replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
}

/** `Bearer k="v", ...`, or just `Bearer` with no attributes. */
export function bearerChallenge(challenge: BearerChallenge): string {
  const params: string[] = [];
  for (const [name, value] of Object.entries(challenge) as [keyof BearerChallenge, string | undefined][]) {
    if (value === undefined) continue;
    params.push(`${name}=${quotedString(name === 'error_description' ? descriptionText(value) : value)}`);
  }
  return params.length === 0 ? 'Bearer' : `Bearer ${params.join(', ')}`;
}
