/** @module Durations in the config file: a whole number of milliseconds or a string like 500ms, 30s, 5m, 1h or 1h30m. */

/** The longest delay `setTimeout` honours (about 24.8 days); longer ones would fire at once. */
export const MAX_DURATION_MS = 2_147_483_647;

/** One or more `<number><unit>` parts, units ms, s, m, h (as a JSON Schema / RegExp source). */
export const DURATION_PATTERN = '^(?:\\d+(?:\\.\\d+)?(?:ms|s|m|h))+$';

const DURATION_RE = new RegExp(DURATION_PATTERN);
const PART_RE = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Whether `text` has the shape of a duration string (it may still be too long). */
export function isDurationText(text: string): boolean {
  return DURATION_RE.test(text);
}

/**
 * Milliseconds of a duration: a non-negative whole number is taken as milliseconds, a string is
 * a sum of parts like `1h30m` (fractions allowed: `1.5s`; the total is rounded to whole ms).
 * Throws an Error whose message is a phrase that fits after a config key ("must be ...").
 */
export function parseDuration(value: number | string): number {
  let ms: number;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) throw new Error(`must be a whole number of milliseconds, 0 or more (got ${value})`);
    ms = value;
  } else {
    if (!isDurationText(value)) throw new Error(`must be a duration like 500ms, 30s, 5m or 1h (got ${JSON.stringify(value)})`);
    ms = 0;
    for (const [, amount, unit] of value.matchAll(PART_RE)) ms += Number(amount) * (UNIT_MS[unit ?? ''] ?? 0);
    ms = Math.round(ms);
  }
  if (ms > MAX_DURATION_MS) {
    throw new Error(`must be at most ${MAX_DURATION_MS}ms, about 24.8 days (got ${JSON.stringify(value)})`);
  }
  return ms;
}
