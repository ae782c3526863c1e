/**
 * @module The readable log line: `time LEVEL message key=value…`, with every URL's credentials redacted,
 * and the pino destination that writes pino's records in it.
 */

import type { LogLevel } from '../core/log.js';
import { redactUrlsIn } from '../protocol/redact-url.js';

/** Where lines go (stderr, or a test's capture): each write is one whole line. */
export interface LineSink {
  write(text: string): unknown;
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

/**
 * A synchronous pino destination writing each record (one JSON line: `level` as a label, `time` as
 * ISO 8601, the bindings and fields, `msg`) as a readable line on `sink`.
 */
export function textDestination(sink: LineSink): { write(record: string): void } {
  return {
    write(record) {
      const { level, time, msg, ...fields } = JSON.parse(record) as { level: LogLevel; time: string; msg?: string } & Record<string, unknown>;
      sink.write(formatLogLine(new Date(time), level, msg ?? '', fields));
    },
  };
}

/** A synchronous pino destination writing each record as it is, one JSON object per line, its URLs redacted. */
export function jsonDestination(sink: LineSink): { write(record: string): void } {
  return {
    write(record) {
      // A URL inside a JSON string stops at a quote or a backslash, so the line stays valid JSON.
      sink.write(redactUrlsIn(record));
    },
  };
}
