/** @module The one timestamp form the stores keep (`Date.toISOString()`), so that ordering and `before` compare as strings. */

import { QuestionStoreError } from './store-error.js';

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ISO_LIKE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** True for exactly what `Date.prototype.toISOString` produces for years 0000–9999 (UTC, milliseconds, `Z`). */
export function isCanonicalTimestamp(value: unknown): value is string {
  if (typeof value !== 'string' || !CANONICAL.test(value)) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

/** The store's clock reading as a timestamp; a clock that returns an invalid date is a programming error. */
export function stamp(now: () => Date): string {
  const date = now();
  const time = date instanceof Date ? date.getTime() : Number.NaN;
  if (Number.isNaN(time)) throw new RangeError('the question store clock returned an invalid date');
  const text = new Date(time).toISOString();
  // toISOString's own text is canonical once it has the four-digit year (the round trip isCanonicalTimestamp adds holds).
  if (!CANONICAL.test(text)) throw new RangeError(`the question store clock returned ${text}, outside the years 0000–9999`);
  return text;
}

/** A `before` filter bound in any ISO 8601 form (date, or date-time with `Z` or an offset), in canonical form. */
export function normalizeBound(value: unknown): string {
  if (typeof value === 'string' && ISO_LIKE.test(value)) {
    const time = Date.parse(value);
    if (!Number.isNaN(time)) {
      const text = new Date(time).toISOString();
      if (isCanonicalTimestamp(text)) return text;
    }
  }
  throw new QuestionStoreError('invalid-filter', `before must be an ISO 8601 time, got ${JSON.stringify(value) ?? String(value)}`);
}
