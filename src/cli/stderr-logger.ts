/** @module The CLI's logger on stderr: its level from SWITCHBOARD_LOG (debug|info|warn|error), its format from the config's `log.format`. */

import type { Logger, LogLevel } from '../core/log.js';
import { LOG_LEVELS } from '../core/log.js';
import type { LineSink } from '../observability/log-line.js';
import type { LogFormat } from '../observability/logger.js';
import { createLogger, DEFAULT_LOG_LEVEL } from '../observability/logger.js';

export const LOG_LEVEL_ENV = 'SWITCHBOARD_LOG';

export function parseLogLevel(text: string | undefined): LogLevel | undefined {
  const value = text?.trim().toLowerCase();
  return LOG_LEVELS.find((level) => level === value);
}

/** The logger configured by SWITCHBOARD_LOG; an unknown value falls back to info with one warning line. */
export function loggerFromEnv(env: Record<string, string | undefined>, sink: LineSink = process.stderr, format: LogFormat = 'text'): Logger {
  const raw = env[LOG_LEVEL_ENV];
  const level = parseLogLevel(raw);
  const logger = createLogger({ level: level ?? DEFAULT_LOG_LEVEL, format, sink });
  if (raw !== undefined && raw !== '' && level === undefined) {
    logger.log('warn', `${LOG_LEVEL_ENV}=${raw} is not one of ${LOG_LEVELS.join('|')}; using ${DEFAULT_LOG_LEVEL}`);
  }
  return logger;
}
