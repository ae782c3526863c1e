/** @module A warning logged at most once a minute per message, saying how many were held back, so an unreachable server does not flood the log. */

import type { LogFields, Logger } from '../../core/log.js';

export const WARNING_INTERVAL_MS = 60_000;

/** A function that logs `message` at warn unless it was logged less than `intervalMs` ago. */
export function createThrottledWarning(logger: Logger, now: () => number, intervalMs = WARNING_INTERVAL_MS): (message: string, fields?: LogFields) => void {
  const last = new Map<string, { at: number; held: number }>();
  return (message, fields) => {
    const time = now();
    const seen = last.get(message);
    if (seen !== undefined && time - seen.at < intervalMs) {
      seen.held += 1;
      return;
    }
    last.set(message, { at: time, held: 0 });
    logger.log('warn', message, seen !== undefined && seen.held > 0 ? { ...fields, heldBack: seen.held } : fields);
  };
}
