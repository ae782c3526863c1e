/** @module The CLI's Logger: one line per entry on stderr, filtered by level (SWITCHBOARD_LOG=debug|info|warn|error). */

import type { Logger, LogLevel } from '../gateway/logger.js';
import { redactUrlsIn } from '../protocol/redact-url.js';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';
export const LOG_LEVEL_ENV = 'SWITCHBOARD_LOG';

export interface LineSink {
  write(text: string): unknown;
}

export function parseLogLevel(text: string | undefined): LogLevel | undefined {
  const value = text?.trim().toLowerCase();
  return LEVELS.find((level) => level === value);
}

/** `key=value`, quoting (JSON) any value that is not a plain token, so an entry never spans lines. */
function formatField(key: string, value: unknown): string {
  let text: string;
  if (value instanceof Error) text = value.message;
  else if (typeof value === 'string') text = value;
  else if (value === undefined) return '';
  else text = JSON.stringify(value) ?? String(value);
  text = redactUrlsIn(text);
  return /^[\w./:@+-]+$/.test(text) ? `${key}=${text}` : `${key}=${JSON.stringify(text)}`;
}

/** One line; every URL in it has its credentials redacted (the last line of defence: callers redact what they know). */
export function formatLogLine(time: Date, level: LogLevel, message: string, fields?: Record<string, unknown>): string {
  const parts = [time.toISOString(), level.toUpperCase().padEnd(5), redactUrlsIn(message).replace(/\r?\n/g, '\\n')];
  for (const [key, value] of Object.entries(fields ?? {})) {
    const field = formatField(key, value);
    if (field !== '') parts.push(field);
  }
  return `${parts.join(' ')}\n`;
}

export function createStderrLogger(options: { level?: LogLevel; sink?: LineSink; clock?: () => Date } = {}): Logger {
  const threshold = LEVELS.indexOf(options.level ?? DEFAULT_LOG_LEVEL);
  const sink = options.sink ?? process.stderr;
  const clock = options.clock ?? (() => new Date());
  return {
    log(level, message, fields) {
      if (LEVELS.indexOf(level) < threshold) return;
      sink.write(formatLogLine(clock(), level, message, fields));
    },
  };
}

/** The logger configured by SWITCHBOARD_LOG; an unknown value falls back to info with one warning line. */
export function loggerFromEnv(env: Record<string, string | undefined>, sink: LineSink = process.stderr): Logger {
  const raw = env[LOG_LEVEL_ENV];
  const level = parseLogLevel(raw);
  const logger = createStderrLogger({ level: level ?? DEFAULT_LOG_LEVEL, sink });
  if (raw !== undefined && raw !== '' && level === undefined) {
    logger.log('warn', `${LOG_LEVEL_ENV}=${raw} is not one of ${LEVELS.join('|')}; using ${DEFAULT_LOG_LEVEL}`);
  }
  return logger;
}
