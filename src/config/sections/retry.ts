/** @module The `retry` section: the backoff for upstreams that failed to start, initialDelay no longer than maxDelay. */

import { z } from 'zod';

import { custom, duration } from './fields.js';

/** Defaults as written in the file (before durations are normalized). */
const DEFAULTS = {
  initialDelay: '1s',
  maxDelay: '60s',
} as const;

export const retrySchema = z
  .strictObject({
    initialDelay: duration('First wait before restarting an upstream that failed to start.', 1).prefault(DEFAULTS.initialDelay),
    maxDelay: duration('Longest wait between restarts (the wait doubles up to this).', 1).prefault(DEFAULTS.maxDelay),
  })
  .superRefine((retry, ctx) => {
    if (retry.initialDelay > retry.maxDelay) {
      custom(ctx, `must not be longer than maxDelay (${retry.initialDelay}ms > ${retry.maxDelay}ms)`, ['initialDelay']);
    }
  })
  .meta({ description: 'Backoff for upstreams that failed to start.' });
