/** @module The one error type of the config layer: a single line `<file>:<line>: <path>: <what is wrong>`. */

import { LocalError } from '../core/errors/local.js';

export interface ConfigErrorDetails {
  /** The config file as the user named it. */
  file: string;
  /** 1-based line of the offending node, when known. */
  line?: number;
  /** Dotted path of the offending key, e.g. `upstreams.desk.sharing`. */
  path?: string;
  /** What is wrong, e.g. `must be one of per-session, shared (got "sometimes")`. */
  reason: string;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

export class ConfigError extends LocalError {
  override readonly name = 'ConfigError';
  override readonly code = 'config-invalid';
  readonly file: string;
  readonly line: number | undefined;
  readonly path: string | undefined;
  readonly reason: string;

  constructor(details: ConfigErrorDetails) {
    const reason = oneLine(details.reason);
    const where = details.line === undefined ? details.file : `${details.file}:${details.line}`;
    super(details.path === undefined ? `${where}: ${reason}` : `${where}: ${details.path}: ${reason}`);
    this.file = details.file;
    this.line = details.line;
    this.path = details.path;
    this.reason = reason;
  }
}
