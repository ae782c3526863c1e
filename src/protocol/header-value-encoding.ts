/** @module The `=?base64?…?=` form of 2026-07-28 header values (Mcp-Name, Mcp-Param-*): when to use it, encoding, strict decoding. */

const PREFIX = '=?base64?';
const SUFFIX = '?=';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Whether a value can travel as it is: printable ASCII (space allowed inside), not empty, no leading
 * or trailing space (HTTP trims it), and not looking like the encoded form (in any letter case), so
 * that a receiver never mistakes a literal for an encoding.
 */
export function isPlainHeaderValue(value: string): boolean {
  if (value.length === 0 || value.startsWith(' ') || value.endsWith(' ')) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return !value.slice(0, PREFIX.length).toLowerCase().startsWith(PREFIX);
}

/** The header form of a value: itself when plain, else `=?base64?<standard base64 of its UTF-8>?=`. */
export function encodeHeaderValue(value: string): string {
  return isPlainHeaderValue(value) ? value : `${PREFIX}${base64OfUtf8(value)}${SUFFIX}`;
}

export type HeaderValueDecode = { ok: true; value: string } | { ok: false; reason: string };

/**
 * The value a received header stands for. Strict: a raw value must be printable ASCII; an encoded
 * one (exactly `=?base64?…?=`) must hold canonical, padded standard base64 of valid UTF-8 (a byte
 * order mark is kept as data). A value that starts with the marker but lacks the closing `?=` is a literal.
 * Never throws.
 */
export function decodeHeaderValue(raw: string): HeaderValueDecode {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return { ok: false, reason: 'the header value has a character that is not printable ASCII' };
  }
  // Only the whole form is an encoding: a value without the closing ?= is a literal (SEP-2243).
  if (!raw.startsWith(PREFIX) || raw.length < PREFIX.length + SUFFIX.length || !raw.endsWith(SUFFIX)) return { ok: true, value: raw };
  const payload = raw.slice(PREFIX.length, raw.length - SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return { ok: false, reason: 'the encoded header value is not padded standard base64' };
  const binary = atob(payload);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (btoa(binary) !== payload) return { ok: false, reason: 'the encoded header value is not canonical base64' };
  try {
    return { ok: true, value: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { ok: false, reason: 'the encoded header value is not UTF-8' };
  }
}

function base64OfUtf8(value: string): string {
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
