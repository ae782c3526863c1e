/** @module The logger contract the core writes to (the CLI supplies one; tests use a silent or capturing one). */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The levels from the most detailed to the most severe. */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export type LogFields = Record<string, unknown>;

export interface Logger {
  log(level: LogLevel, message: string, fields?: LogFields): void;
  /** A logger that writes `bindings` with every entry, before the entry's own fields (e.g. `{ session }`). */
  child(bindings: LogFields): Logger;
}

/** A Logger over one function, which receives every entry with the child bindings merged in front of its fields. */
export function loggerFrom(write: (level: LogLevel, message: string, fields?: LogFields) => void, bindings: LogFields = {}): Logger {
  const bound = Object.keys(bindings).length > 0;
  return {
    log(level, message, fields) {
      write(level, message, bound ? { ...bindings, ...fields } : fields);
    },
    child(more) {
      return loggerFrom(write, { ...bindings, ...more });
    },
  };
}

export const silentLogger: Logger = {
  log() {},
  child: () => silentLogger,
};
