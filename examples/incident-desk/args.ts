/** @module incident-desk/args: parses `incident-desk [--stateless] [--http HOST:PORT] [--request-timeout MS]`. */
import { parseArgs } from 'node:util';

export const USAGE = [
  'usage: incident-desk [--stateless] [--http HOST:PORT] [--request-timeout MS]   (stdio when --http is absent)',
  '  --stateless     serve 2026-07-28 only: no sessions, approvals and sampling through input_required',
  '                  (INCIDENT_DESK_STATE_KEY, 32+ bytes, shares the requestState key between processes)',
].join('\n');

export interface HttpAddress {
  readonly host: string;
  readonly port: number;
}

export interface IncidentDeskArgs {
  /** 2026-07-28 only, stateless (present only when asked for). */
  readonly stateless?: true;
  readonly http?: HttpAddress;
  readonly requestTimeoutMs?: number;
  readonly help: boolean;
}

export class ArgsError extends Error {
  override readonly name = 'ArgsError';
}

export function parseHttpAddress(value: string): HttpAddress {
  const colon = value.lastIndexOf(':');
  if (colon <= 0) throw new ArgsError(`--http wants HOST:PORT, got "${value}"`);
  const host = value.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const portText = value.slice(colon + 1);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new ArgsError(`--http port must be 0-65535, got "${portText}"`);
  return { host, port };
}

export function parseTimeout(value: string): number {
  const ms = Number(value);
  if (!/^\d+$/.test(value) || ms <= 0) throw new ArgsError(`--request-timeout wants a positive number of ms, got "${value}"`);
  return ms;
}

export function parseIncidentDeskArgs(argv: readonly string[]): IncidentDeskArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        stateless: { type: 'boolean' },
        http: { type: 'string' },
        'request-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ArgsError(error instanceof Error ? error.message : String(error));
  }
  if (values.stateless === true && values['request-timeout'] !== undefined) {
    throw new ArgsError('--request-timeout applies to the legacy mode only: a --stateless desk never waits for the host');
  }
  return {
    help: values.help === true,
    ...(values.stateless === true && { stateless: true as const }),
    ...(values.http !== undefined && { http: parseHttpAddress(values.http) }),
    ...(values['request-timeout'] !== undefined && { requestTimeoutMs: parseTimeout(values['request-timeout']) }),
  };
}
