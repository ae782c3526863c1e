/** @module Parsing a listen address (`HOST:PORT`, `[IPv6]:PORT` or `:PORT`) for the config file and the `--listen` flag. */

import type { ListenAddress } from './types.js';

/** The host used when an address gives only `:PORT`. */
export const DEFAULT_LISTEN_HOST = '127.0.0.1';

const FORMS = 'use HOST:PORT, [IPv6]:PORT or :PORT';
const HOSTNAME_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV4_RE = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6_RE = /^[0-9A-Fa-f:.]+(?:%[A-Za-z0-9_.-]+)?$/;

/**
 * Splits a listen address into host and port. `:PORT` means 127.0.0.1; port 0 asks the OS for a free
 * port. IPv6 hosts need brackets (`[::1]:3939`) and come back without them. Throws a plain Error.
 */
export function parseListenAddress(text: string): ListenAddress {
  const fail = (why: string): never => {
    throw new Error(`invalid listen address ${JSON.stringify(text)}: ${why}`);
  };
  const trimmed = text.trim();
  let host: string;
  let portText: string;
  if (trimmed.startsWith('[')) {
    const close = trimmed.indexOf(']');
    if (close < 0) return fail(`missing "]" after the IPv6 address (${FORMS})`);
    host = trimmed.slice(1, close);
    const rest = trimmed.slice(close + 1);
    if (!rest.startsWith(':')) return fail(`no port after "]" (${FORMS})`);
    portText = rest.slice(1);
    if (!IPV6_RE.test(host) || !host.includes(':')) return fail(`"${host}" is not an IPv6 address`);
  } else {
    const colon = trimmed.lastIndexOf(':');
    if (colon < 0) return fail(`no port (${FORMS})`);
    host = trimmed.slice(0, colon);
    portText = trimmed.slice(colon + 1);
    if (host.includes(':')) return fail(`put an IPv6 host in brackets, e.g. [::1]:3939`);
    if (host === '') host = DEFAULT_LISTEN_HOST;
    else if (IPV4_RE.test(host)) {
      if (host.split('.').some((octet) => Number(octet) > 255)) return fail(`"${host}" is not an IPv4 address`);
    } else if (!HOSTNAME_RE.test(host)) return fail(`"${host}" is not a host name or IP address`);
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    return fail(`port must be a number from 0 to 65535 (got ${JSON.stringify(portText)})`);
  }
  return { host, port: Number(portText) };
}
