/** @module What a CLI command may touch of the process: streams, environment and shutdown signals. */

import { LocalError } from '../core/errors/local.js';
import type { Readable, Writable } from 'node:stream';

export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
  /**
   * Resolves at the first SIGINT or SIGTERM. Handlers are installed on the first call only, so
   * commands that never wait keep the default behaviour (the signal ends the process).
   */
  untilSignal(): Promise<NodeJS.Signals>;
  /** Calls `listener` at each SIGHUP (a reload of the config); returns what removes it. Absent: no such signal here. */
  onHangup?(listener: () => void): () => void;
}

/** A command-line mistake: reported as one line, exit code 2. */
export class UsageError extends LocalError {
  override readonly name = 'UsageError';
  override readonly code = 'cli-usage';
}

/** A failure with a message meant for the user as is: one line, exit code 1. */
export class CliError extends LocalError {
  override readonly name = 'CliError';
  override readonly code = 'cli-failed';
}

/** The real process. A second signal while shutting down exits at once with code 1. */
export function processIo(): CliIo {
  let waiting: Promise<NodeJS.Signals> | undefined;
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    untilSignal() {
      waiting ??= new Promise((resolve) => {
        let seen = 0;
        const onSignal = (signal: NodeJS.Signals) => {
          seen += 1;
          if (seen > 1) process.exit(1);
          resolve(signal);
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
      });
      return waiting;
    },
    onHangup(listener) {
      const onSignal = () => listener();
      process.on('SIGHUP', onSignal);
      return () => process.off('SIGHUP', onSignal);
    },
  };
}
