/** @module The logger contract the core writes to (the CLI supplies one; tests use a silent or capturing one). */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { log() {} };
