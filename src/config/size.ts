/** @module Sizes in the config file: a whole number of bytes or a string like 512b, 64kb, 4mb, 1gb (1024-based). */

/** A number with an optional fraction and a unit b, kb, mb or gb, any case (as a JSON Schema / RegExp source). */
export const SIZE_PATTERN = '^\\d+(?:\\.\\d+)?\\s*(?:[bB]|[kK][bB]|[mM][bB]|[gG][bB])$';

const SIZE_RE = new RegExp(SIZE_PATTERN);
const UNIT_BYTES: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/**
 * Bytes of a size: a non-negative whole number is taken as bytes; a string is `<number><unit>`
 * with kb = 1024 bytes, mb = 1024 kb, gb = 1024 mb (fractions allowed, rounded down to whole bytes).
 * Throws an Error whose message is a phrase that fits after a config key ("must be ...").
 */
export function parseSize(value: number | string): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`must be a whole number of bytes, 0 or more (got ${value})`);
    return value;
  }
  const match = SIZE_RE.test(value) ? /^(\d+(?:\.\d+)?)\s*([a-z]+)$/.exec(value.toLowerCase()) : null;
  if (!match) throw new Error(`must be a size like 512kb, 4mb or 1gb (got ${JSON.stringify(value)})`);
  const bytes = Math.floor(Number(match[1]) * (UNIT_BYTES[match[2] ?? ''] ?? Number.NaN));
  if (!Number.isSafeInteger(bytes)) throw new Error(`is too large (got ${JSON.stringify(value)})`);
  return bytes;
}
