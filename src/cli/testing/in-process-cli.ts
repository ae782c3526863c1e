/** @module Runs the CLI in process for its tests: piped stdin (optionally marked a terminal), and what it printed and returned. */

import { PassThrough } from 'node:stream';

import type { CliIo } from '../cli-io.js';
import { runCli } from '../run-cli.js';

/** What one CLI run returned and printed. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in process; `stdinText` is written to stdin (then ended), which `tty` marks as a terminal. */
export async function runCliInProcess(argv: string[], env: Record<string, string> = {}, options: { stdinText?: string; tty?: boolean } = {}): Promise<CliRun> {
  const stdin = new PassThrough();
  if (options.tty) Object.assign(stdin, { isTTY: true });
  stdin.end(options.stdinText ?? '');
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const io: CliIo = { stdin, stdout, stderr, env, untilSignal: () => new Promise(() => undefined) };
  const code = await runCli(argv, io);
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out, stderr: err };
}
