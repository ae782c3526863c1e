/** @module The gateway could not be reached (exit code 3): fetch's network failures turned into one line naming the URL and the cause. */

import { LocalError } from '../core/errors/local.js';

/** Exit code of a command that could not reach the gateway at all. */
export const EXIT_CANNOT_CONNECT = 3;

/** Nothing answered at the URL: refused, unresolvable, reset, timed out. Never an HTTP status. */
export class ConnectError extends LocalError {
  override readonly name = 'ConnectError';
  override readonly code = 'gateway-unreachable';
}

/** The URL as it may be shown: no user name or password, no query (which could hold a credential), no fragment. */
export function displayUrl(url: URL | string): string {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  shown.search = '';
  shown.hash = '';
  return shown.href;
}

/** The innermost system error code or message of a fetch failure (undici puts the socket error in `cause`). */
function rootCause(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string' && !code.startsWith('UND_ERR_') && code !== 'ERR_INVALID_URL') return code;
    if (current.cause === undefined) return current.message;
    current = current.cause;
  }
  return String(current);
}

/** `fetch`, with a failure to connect (anything but an HTTP response, or an abort) thrown as a ConnectError. */
export async function fetchOrConnectError(url: URL, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ConnectError(`cannot connect to ${displayUrl(url)}: ${rootCause(error)} (is \`switchboard serve\` running there?)`);
  }
}
