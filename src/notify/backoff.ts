/** @module When a delivery is tried again: which answers are retried, and after how long (exponential backoff with jitter, Retry-After honoured within bounds). */

/** The first retry's delay before jitter; each next one doubles. */
export const FIRST_BACKOFF_MS = 1000;
/** The longest backoff before jitter. */
export const MAX_BACKOFF_MS = 60_000;
/** The longest Retry-After honoured: a receiver asking for more gets it capped here. */
export const MAX_RETRY_AFTER_MS = 600_000;

/** What an HTTP status means for a delivery. */
export type Verdict = 'sent' | 'retry' | 'give-up';

/**
 * 2xx: sent. 5xx, 429 (too many requests) and 408 (request timeout): the receiver may take it later. Anything else (a
 * 4xx: the request is wrong, unauthorized or the hook gone; a 3xx: redirects are not followed) is given up at once.
 */
export function verdictOf(status: number): Verdict {
  if (status >= 200 && status < 300) return 'sent';
  if (status >= 500 || status === 429 || status === 408) return 'retry';
  return 'give-up';
}

/**
 * The wait before attempt `failed + 1`, after `failed` attempts: FIRST_BACKOFF_MS doubled per failure, capped at
 * MAX_BACKOFF_MS, then "equal jitter" (between half and all of it) so that receivers recovering are not hit by every
 * gateway at once; a longer Retry-After (capped at MAX_RETRY_AFTER_MS) wins. `random` gives [0, 1).
 */
export function retryDelayMs(failed: number, random: () => number, retryAfterMs?: number): number {
  const exponent = Math.min(Math.max(failed - 1, 0), 30);
  const base = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** exponent);
  const jittered = base / 2 + (base / 2) * Math.min(Math.max(random(), 0), 1);
  return retryAfterMs === undefined ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** A Retry-After header in milliseconds from `nowMs`: delta-seconds or an HTTP date; undefined when absent or malformed. */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (text === '' || text.length > 100) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
