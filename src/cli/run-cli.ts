/** @module Dispatches `switchboard <command>` and turns every failure into one stderr line and an exit code. */

import { existsSync, readFileSync } from 'node:fs';

import { ConfigError } from '../config/load.js';
import { redactUrlsIn } from '../protocol/redact-url.js';
import { CliError, UsageError } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { callCommand } from './commands/call.js';
import { checkCommand } from './commands/check.js';
import { questionsCommand } from './commands/questions.js';
import { reloadCommand } from './commands/reload.js';
import { serveCommand } from './commands/serve.js';
import { stdioCommand } from './commands/stdio.js';
import { MAIN_HELP } from './help.js';
import { parseLogLevel } from './stderr-logger.js';

const COMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<number>> = {
  serve: serveCommand,
  stdio: stdioCommand,
  check: checkCommand,
  questions: questionsCommand,
  call: callCommand,
  reload: reloadCommand,
};

/** The package version, read from the package.json above this module (in src/ or in the built dist/src/). */
function version(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    const url = new URL(up, import.meta.url);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'switchboard') return pkg.version ?? 'unknown';
  }
  return 'unknown';
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError('missing command (try: switchboard --help)');
  if (first === '--help' || first === '-h' || first === 'help') {
    const command = first === 'help' ? rest[0] : undefined;
    if (command !== undefined && COMMANDS[command] !== undefined) return COMMANDS[command](['--help'], io);
    if (command !== undefined) throw new UsageError(`unknown command ${JSON.stringify(command)} (try: switchboard --help)`);
    io.stdout.write(MAIN_HELP);
    return 0;
  }
  if (first === '--version' || first === '-v') {
    io.stdout.write(`switchboard ${version()}\n`);
    return 0;
  }
  if (first.startsWith('-')) throw new UsageError(`unknown option ${first} (try: switchboard --help)`);
  const command = COMMANDS[first];
  if (command === undefined) throw new UsageError(`unknown command ${JSON.stringify(first)} (try: switchboard --help)`);
  return command(rest, io);
}

/** Runs the CLI; never throws. Exit codes: 0 ok, 1 failure (bad config, failed upstream check), 2 usage error (3: `questions` and `call` could not connect). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    // A URL in the message (a config value, a connect error) is printed without its credentials.
    const line = (text: string) => io.stderr.write(`switchboard: ${redactUrlsIn(text).replace(/\s*\r?\n\s*/g, ' ')}\n`);
    if (error instanceof UsageError) {
      line(error.message);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof CliError) {
      line(error.message);
      return 1;
    }
    line(error instanceof Error ? error.message : String(error));
    if (parseLogLevel(io.env.SWITCHBOARD_LOG) === 'debug' && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return 1;
  }
}
