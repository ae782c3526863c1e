/** @module The field builders every config section uses: durations, sizes and URLs as the file writes them, and one way to report a custom issue. */

import { z } from 'zod';

import { DURATION_PATTERN, MAX_DURATION_MS, parseDuration } from '../duration.js';
import { SIZE_PATTERN, parseSize } from '../size.js';

type Ctx = z.core.$RefinementCtx;

/** Reports a custom issue at `path` (relative to the value being refined). */
export function custom(ctx: Ctx, message: string, path: (string | number)[] = []): void {
  ctx.addIssue({ code: 'custom', message, path });
}

/** Milliseconds, from a whole number or a duration string; `min` is 0 or 1 (must be positive). */
export function duration(description: string, min: 0 | 1) {
  const text = z.string().regex(new RegExp(DURATION_PATTERN), { error: 'must be a duration like 500ms, 30s, 5m or 1h' });
  return z
    .union([z.int().nonnegative().max(MAX_DURATION_MS), text], {
      error: (issue) =>
        typeof issue.input === 'number'
          ? `must be a whole number of milliseconds from 0 to ${MAX_DURATION_MS}`
          : 'must be a number of milliseconds or a duration like 500ms, 30s, 5m or 1h',
    })
    .transform((value, ctx) => {
      try {
        const ms = parseDuration(value);
        if (ms < min) custom(ctx, `must be more than 0 (got ${JSON.stringify(value)})`);
        return ms;
      } catch (error) {
        custom(ctx, (error as Error).message);
        return z.NEVER;
      }
    })
    .meta({ description });
}

/** Bytes, from a whole number or a size string; must be positive. */
export function size(description: string) {
  const text = z.string().regex(new RegExp(SIZE_PATTERN), { error: 'must be a size like 512kb, 4mb or 1gb' });
  return z
    .union([z.int().positive(), text], {
      error: (issue) =>
        typeof issue.input === 'number' ? 'must be a whole number of bytes, 1 or more' : 'must be a number of bytes or a size like 512kb, 4mb or 1gb',
    })
    .transform((value, ctx) => {
      try {
        const bytes = parseSize(value);
        if (bytes < 1) custom(ctx, `must be more than 0 bytes (got ${JSON.stringify(value)})`);
        return bytes;
      } catch (error) {
        custom(ctx, (error as Error).message);
        return z.NEVER;
      }
    })
    .meta({ description });
}

/** An http(s) URL; with `https`, only an https URL with a path other than `/` (what a Client ID Metadata Document URL must be). */
export function isUrl(text: string, https: boolean): boolean {
  try {
    const { protocol, pathname } = new URL(text);
    return https ? protocol === 'https:' && pathname !== '/' : protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
