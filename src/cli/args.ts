/** @module Argument parsing with node:util parseArgs, turning its errors into one-line UsageErrors. */

import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

import { UsageError } from './cli-io.js';

export const CONFIG_OPTION = { type: 'string', short: 'c' } as const;
export const HELP_OPTION = { type: 'boolean', short: 'h' } as const;

/** The default config file, relative to the working directory. */
export const DEFAULT_CONFIG_PATH = 'switchboard.yaml';

type Options = NonNullable<ParseArgsConfig['options']>;

function describeParseError(error: Error & { code?: string }): string {
  const quoted = /'([^']+)'/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted ?? error.message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return quoted?.includes('<value>') ? `option ${quoted.replace(/ <value>$/, '')} needs a value` : `invalid option value: ${error.message}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${quoted ?? error.message}`;
    default:
      return error.message;
  }
}

/** Parses `argv` for a subcommand (no positionals); a mistake throws a UsageError naming the command. */
export function parseCommandArgs<T extends Options>(command: string, argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const message = describeParseError(error as Error & { code?: string });
    throw new UsageError(`${command}: ${message} (try: switchboard ${command} --help)`);
  }
}

/**
 * Parses `argv` for a subcommand that takes positional arguments (`help` is the command its help hint names,
 * e.g. `questions` for `questions answer`); a mistake throws a UsageError naming `command`.
 */
export function parseCommandLine<T extends Options>(command: string, argv: string[], options: T, help = command) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (error) {
    const message = describeParseError(error as Error & { code?: string });
    throw new UsageError(`${command}: ${message} (try: switchboard ${help} --help)`);
  }
}
