/** @module A logger that keeps every entry, for tests that check what was (and was not) logged. */

import { loggerFrom } from '../log.js';
import type { LogFields, Logger, LogLevel } from '../log.js';

export interface CapturedEntry {
  level: LogLevel;
  message: string;
  fields?: LogFields;
}

export function captureLog(): { logger: Logger; entries: CapturedEntry[] } {
  const entries: CapturedEntry[] = [];
  const logger = loggerFrom((level, message, fields) => {
    entries.push({ level, message, ...(fields === undefined ? {} : { fields }) });
  });
  return { logger, entries };
}
