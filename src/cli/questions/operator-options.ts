/** @module The connection flags every `switchboard questions` subcommand shares: --url, --token, --operator (and their environment variables). */

import { QUESTION_STATES } from '../../edges/operator/api-schemas.js';
import { UsageError } from '../cli-io.js';
import type { OperatorClientOptions } from '../operator-client.js';
import { headerValueProblem } from '../operator-client.js';

export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:3939';
export const URL_ENV = 'SWITCHBOARD_URL';
export const TOKEN_ENV = 'SWITCHBOARD_CONSOLE_TOKEN';

export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  operator: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `text` as an http(s) URL, or a UsageError naming `flag`. */
export function parseHttpUrl(prefix: string, flag: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${prefix}: ${flag} ${JSON.stringify(text)} is not a URL (e.g. ${DEFAULT_GATEWAY_URL})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${prefix}: ${flag} must be an http:// or https:// URL`);
  return url.href;
}

/** The client options from the flags and the environment. The token is never part of any message. */
export function operatorClientOptions(
  prefix: string,
  flags: { url?: string | undefined; token?: string | undefined; operator?: string | undefined },
  env: Record<string, string | undefined>,
): OperatorClientOptions {
  const fromEnv = flags.url === undefined && env[URL_ENV] !== undefined && env[URL_ENV] !== '';
  const baseUrl = parseHttpUrl(prefix, fromEnv ? URL_ENV : '--url', flags.url ?? (fromEnv ? (env[URL_ENV] as string) : DEFAULT_GATEWAY_URL));
  const token = flags.token ?? env[TOKEN_ENV];
  if (token === undefined || token === '') throw new UsageError(`${prefix}: no operator token: give --token or set ${TOKEN_ENV}`);
  const tokenProblem = headerValueProblem(token);
  if (tokenProblem !== undefined) throw new UsageError(`${prefix}: the operator token ${tokenProblem}`);
  const options: OperatorClientOptions = { baseUrl, token };
  if (flags.operator !== undefined) {
    const problem = headerValueProblem(flags.operator);
    if (problem !== undefined) throw new UsageError(`${prefix}: --operator ${problem}`);
    options.operator = flags.operator;
  }
  return options;
}

/** `--state` values (repeatable, comma-separated) checked against the API's states. */
export function parseStates(prefix: string, values: readonly string[]): string[] {
  const states = values.flatMap((value) => value.split(',')).map((state) => state.trim()).filter((state) => state !== '');
  const unknown = states.find((state) => !(QUESTION_STATES as readonly string[]).includes(state));
  if (unknown !== undefined) throw new UsageError(`${prefix}: --state ${JSON.stringify(unknown)} is not a state (${QUESTION_STATES.join(', ')})`);
  return [...new Set(states)];
}

/** `--limit`: a whole number from 1 to 1000. */
export function parseLimit(prefix: string, text: string): number {
  const limit = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= 1000)) throw new UsageError(`${prefix}: --limit must be a whole number from 1 to 1000`);
  return limit;
}
