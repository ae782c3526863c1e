/** @module Strict base64url (RFC 4648 §5, no padding): one canonical text per byte string, so a handle cannot be re-spelled. */

const ALPHABET = /^[A-Za-z0-9_-]*$/;

export function toBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/**
 * The bytes of a base64url text, or `undefined` unless the text is the one canonical encoding of
 * them: only the url alphabet, no padding, no impossible length, no stray bits in the last character.
 * (Node's own decoder skips what it does not understand, so it alone is not strict.)
 */
export function fromBase64url(text: string): Buffer | undefined {
  if (!ALPHABET.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}
