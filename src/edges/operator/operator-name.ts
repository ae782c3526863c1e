/** @module The operator's name for the audit trail, from the optional `X-Switchboard-Operator` header: sanitised and length-capped. */

export const OPERATOR_HEADER = 'x-switchboard-operator';
export const DEFAULT_OPERATOR = 'operator';
export const MAX_OPERATOR_NAME = 64;

/**
 * Keeps letters, digits, spaces and `. _ @ + -`; drops everything else (control characters, quotes, colons, markup),
 * folds runs of spaces, trims, and cuts to 64 characters. Nothing left: `operator`. The name is what the operator
 * says (the token is shared): an audit label, not an identity.
 */
export function operatorName(header: string | null): string {
  if (header === null) return DEFAULT_OPERATOR;
  const cleaned = header
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._@+-]/gu, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  const capped = [...cleaned].slice(0, MAX_OPERATOR_NAME).join('').trim();
  return capped === '' ? DEFAULT_OPERATOR : capped;
}
