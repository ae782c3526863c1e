/** @module The Logger on pino: a level threshold, child loggers, and a readable text or a JSON line per entry, written synchronously. */

import { systemClock } from '../core/clock.js';
import { pino } from 'pino';
import type { Logger as PinoLogger } from 'pino';

import type { LogFields, Logger, LogLevel } from '../core/log.js';
import type { LineSink } from './log-line.js';
import { jsonDestination, textDestination } from './log-line.js';

/** `text`: the readable line (formatLogLine); `json`: one JSON object per line. */
export type LogFormat = 'text' | 'json';

export const DEFAULT_LOG_LEVEL: LogLevel = 'info';

export interface LoggerOptions {
  /** Entries below it are dropped (default info). */
  level?: LogLevel;
  format?: LogFormat;
  /** Default process.stderr. */
  sink?: LineSink;
  /** The time written with each entry (default now). */
  clock?: () => Date;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const sink = options.sink ?? process.stderr;
  const clock = options.clock ?? (() => systemClock.date());
  const root = pino(
    {
      level: options.level ?? DEFAULT_LOG_LEVEL,
      base: null,
      timestamp: () => `,"time":"${clock().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.format === 'json' ? jsonDestination(sink) : textDestination(sink),
  );
  return wrap(root);
}

function wrap(instance: PinoLogger): Logger {
  return {
    log(level, message, fields) {
      // Below the threshold no record is built: not even the copy of the fields.
      if (!instance.isLevelEnabled(level)) return;
      if (fields === undefined) instance[level](message);
      else instance[level](plain(fields), message);
    },
    child(bindings) {
      return wrap(instance.child(plain(bindings)));
    },
  };
}

/** The keys every record has: a field of the same name is written as `_level`, `_time` or `_msg`. */
const RECORD_KEYS = new Set(['level', 'time', 'msg']);

/** The fields as they are written: an Error by its message (JSON would show it as `{}`), no key that clashes with the record's own. */
function plain(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) out[RECORD_KEYS.has(key) ? `_${key}` : key] = value instanceof Error ? value.message : value;
  return out;
}
