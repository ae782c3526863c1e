/** @module e2e/harness/bounded: deadlines for waits and cleanups that must never hang a test file, and a one-shot run of a command that is expected to exit. */
import { spawn } from 'node:child_process';

import { within } from '../../../src/core/testing/deadlines.js';
import { stopChild } from './child.js';

export { within };

/** `promise`, or a rejection naming `what` once `ms` have passed. */
export async function deadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no outcome within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface Exited {
  /** The exit code, or the signal's name; `'timeout'` when the command was killed at the deadline. */
  readonly code: number | string;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command in its own process group and resolves once it exits; after `timeoutMs` its whole group is
 * killed (TERM, then KILL) and `code` is `'timeout'`. Whatever it spawned goes with it.
 */
export async function runToExit(options: { command: string; args: readonly string[]; cwd: string; env?: Readonly<Record<string, string>>; timeoutMs: number }): Promise<Exited> {
  const child = spawn(options.command, [...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopChild(child, exited, 1_000);
  }, options.timeoutMs);
  const code = await exited;
  clearTimeout(timer);
  // Take the last output, but never wait on pipes a straggler of the group may still hold.
  await within(closed, 1_000);
  await stopChild(child, exited, 0);
  return { code: timedOut ? 'timeout' : code, stdout, stderr };
}
