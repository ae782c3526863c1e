/** @module Keys that sign request-state handles: read from config text, generated, derived for this one purpose, and rotated. */

import { createHash, hkdfSync, randomBytes } from 'node:crypto';

/** The least key material accepted, in bytes (256 bits, the HMAC-SHA256 output size). */
export const MIN_KEY_BYTES = 32;

/** A key ready to sign: derived from the configured material, never the material itself. */
export interface HandleKey {
  /** A short public fingerprint, for logs and for telling which key verified a handle. */
  readonly id: string;
  /** The HMAC key (32 bytes, HKDF-SHA256 of the material). */
  readonly secret: Buffer;
}

/** The first key signs; every key verifies (rotation: add the new key first, drop the old one after the longest handle lifetime). */
export interface HandleKeyRing {
  readonly signing: HandleKey;
  readonly verifying: readonly HandleKey[];
}

export type KeyRead = { ok: true; key: HandleKey } | { ok: false; reason: string };

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Reads key material from config text: `hex:…`, `base64:…`, or unprefixed (hex when it is only hex
 * digits of even length, else base64 in the standard or url alphabet, padding optional). Surrounding
 * whitespace is ignored. At least {@link MIN_KEY_BYTES} bytes, and not an obvious placeholder: the
 * text repeats itself (`changeme-changeme-…`, `aaaa…`) or uses few distinct characters or bytes.
 * That check is a heuristic against typos and examples copied into config, not a measure of entropy:
 * generate keys ({@link generateHandleKeyText}, `openssl rand -base64 32`). Never throws.
 */
export function handleKeyFromText(text: string): KeyRead {
  const decoded = decodeMaterial(text.trim());
  if (typeof decoded === 'string') return { ok: false, reason: decoded };
  const { bytes, body, format } = decoded;
  if (bytes.length < MIN_KEY_BYTES) return { ok: false, reason: `the key has ${bytes.length} bytes; at least ${MIN_KEY_BYTES} random bytes are needed` };
  if (!looksRandom(body, format, bytes)) return { ok: false, reason: 'the key is too regular to be random (a placeholder?); generate one' };
  return { ok: true, key: deriveHandleKey(bytes) };
}

function decodeMaterial(text: string): { bytes: Buffer; body: string; format: 'hex' | 'base64' } | string {
  if (text.length === 0) return 'the key is empty';
  if (text.length > 1024) return 'the key is longer than 1024 characters';
  let body = text;
  let format: 'hex' | 'base64' | undefined;
  if (text.startsWith('hex:')) [format, body] = ['hex', text.slice(4)];
  else if (text.startsWith('base64:')) [format, body] = ['base64', text.slice(7)];
  else format = HEX.test(text) && text.length % 2 === 0 ? 'hex' : 'base64';
  if (format === 'hex') return HEX.test(body) && body.length % 2 === 0 ? { bytes: Buffer.from(body, 'hex'), body, format } : 'the key is not hex';
  const url = BASE64URL.test(body);
  if (!url && !BASE64.test(body)) return 'the key is neither base64 nor hex';
  const bytes = Buffer.from(body, url ? 'base64url' : 'base64');
  const canonical = bytes.toString(url ? 'base64url' : 'base64').replace(/=+$/, '');
  return canonical === body.replace(/=+$/, '') ? { bytes, body, format } : 'the key is not well-formed base64';
}

/**
 * False for text that repeats with a period up to half its length, or has fewer distinct characters
 * (10 for hex, 16 for base64) or bytes (16) than random text of at least 32 bytes practically always has.
 */
function looksRandom(body: string, format: 'hex' | 'base64', bytes: Buffer): boolean {
  const text = format === 'hex' ? body.toLowerCase() : body.replace(/=+$/, '');
  for (let period = 1; period <= text.length / 2; period++) {
    let repeats = true;
    for (let i = period; i < text.length && repeats; i++) repeats = text[i] === text[i - period];
    if (repeats) return false;
  }
  return new Set(text).size >= (format === 'hex' ? 10 : 16) && new Set(bytes).size >= 16;
}

/** Derives the handle key from material (HKDF-SHA256, labelled for this purpose only), with its fingerprint. */
export function deriveHandleKey(material: Uint8Array): HandleKey {
  const secret = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), 'switchboard/request-state/v1', 32));
  const id = createHash('sha256').update('switchboard/key-id\u0000').update(secret).digest('base64url').slice(0, 11);
  return { id, secret };
}

/** Fresh key material as config text (32 random bytes, base64url): what the gateway writes when none is configured. */
export function generateHandleKeyText(): string {
  return randomBytes(MIN_KEY_BYTES).toString('base64url');
}

/** A ring over keys, first one signing; duplicates (same fingerprint) are kept once. Throws `RangeError` without a key. */
export function handleKeyRing(keys: readonly HandleKey[]): HandleKeyRing {
  const [signing] = keys;
  if (signing === undefined) throw new RangeError('a key ring needs at least one key');
  const seen = new Set<string>();
  const verifying = keys.filter((key) => !seen.has(key.id) && seen.add(key.id) !== undefined);
  return { signing, verifying };
}

export type KeyRingRead = { ok: true; ring: HandleKeyRing } | { ok: false; index: number; reason: string };

/** A ring from config texts (the first signs). A bad entry is reported with its index; an empty list is refused. */
export function handleKeyRingFromTexts(texts: readonly string[]): KeyRingRead {
  if (texts.length === 0) return { ok: false, index: 0, reason: 'no key given' };
  const keys: HandleKey[] = [];
  for (const [index, text] of texts.entries()) {
    const read = handleKeyFromText(text);
    if (!read.ok) return { ok: false, index, reason: read.reason };
    keys.push(read.key);
  }
  return { ok: true, ring: handleKeyRing(keys) };
}
