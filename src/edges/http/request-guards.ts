/** @module Header checks done before a request reaches a session: Host/Origin (DNS rebinding, the Host hostname check by the SDK), Accept, Content-Type. */

import { localhostAllowedHostnames, validateHostHeader } from '@modelcontextprotocol/server';

/** The loopback names (localhost, 127.0.0.1, [::1]) accepted with any port, in Host and in Origin. */
const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(localhostAllowedHostnames());

/** Splits a Host header value into its lower-cased hostname (IPv6 kept in brackets) and port text. */
export function splitHost(host: string): { hostname: string; port: string | undefined } {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return { hostname: value, port: undefined };
    const rest = value.slice(end + 1);
    return { hostname: value.slice(0, end + 1), port: rest.startsWith(':') ? rest.slice(1) : undefined };
  }
  const colon = value.indexOf(':');
  return colon === -1 ? { hostname: value, port: undefined } : { hostname: value.slice(0, colon), port: value.slice(colon + 1) };
}

/** Accepted Host values remembered per guard: a client sends the same one on every request. */
const REMEMBERED_HOSTS = 64;

/**
 * The Host check for one `allowedHosts` list, prepared once: a loopback name with any port, or an entry of
 * `allowedHosts` (matched by hostname alone when the entry has no port, else with its port). The SDK's
 * validateHostHeader checks the hostname (read as a URL authority, so `127.1` is 127.0.0.1) against the loopback
 * names and the port-less entries; it cannot express an entry with a port, so those are matched here, exactly.
 * The check is a pure function of the value, so the first REMEMBERED_HOSTS accepted values skip it next time.
 */
export function hostGuard(allowedHosts: readonly string[]): (host: string) => boolean {
  const entries = allowedHosts.map((entry) => entry.trim().toLowerCase());
  const hostnames = [...LOOPBACK_HOSTNAMES, ...entries.filter((entry) => splitHost(entry).port === undefined)];
  const accepted = new Set<string>();
  return (host) => {
    if (accepted.has(host)) return true;
    const value = host.trim().toLowerCase();
    if (value.length === 0) return false;
    const ok = entries.includes(value) || validateHostHeader(value, hostnames).ok;
    if (ok && accepted.size < REMEMBERED_HOSTS) accepted.add(host);
    return ok;
  };
}

/** Whether a Host header value is acceptable under `allowedHosts` (see hostGuard, which a server prepares once). */
export function isAllowedHost(host: string, allowedHosts: readonly string[]): boolean {
  return hostGuard(allowedHosts)(host);
}

function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether an Origin header value is acceptable: an http(s) loopback origin, or one of `allowedOrigins`. Not the SDK's
 * validateOriginHeader: it matches hostnames only, so it would let any scheme and port through for a listed name
 * (`file://localhost`, `http://app.example.com:9999` for `https://app.example.com`).
 */
export function isAllowedOrigin(origin: string, allowedOrigins: readonly string[]): boolean {
  const normalized = originOf(origin.trim());
  if (normalized === undefined) return false;
  if (LOOPBACK_HOSTNAMES.has(new URL(normalized).hostname)) return true;
  return allowedOrigins.some((entry) => (originOf(entry.trim()) ?? entry.trim().toLowerCase()) === normalized);
}

/** The media types listed in an Accept header, lower-cased, parameters dropped. */
function acceptedTypes(accept: string | null): Set<string> {
  const types = new Set<string>();
  for (const part of (accept ?? '').split(',')) {
    const type = part.split(';')[0]?.trim().toLowerCase();
    if (type) types.add(type);
  }
  return types;
}

/** The last Accept value acceptsPostResponses judged, and its answer: a host sends the same header on every POST. */
let lastPostAccept: { accept: string | null; ok: boolean } = { accept: null, ok: false };

/** POST needs both `application/json` and `text/event-stream` listed (2025-era Streamable HTTP). */
export function acceptsPostResponses(accept: string | null): boolean {
  if (accept === lastPostAccept.accept) return lastPostAccept.ok;
  const types = acceptedTypes(accept);
  const ok = types.has('application/json') && types.has('text/event-stream');
  lastPostAccept = { accept, ok };
  return ok;
}

/** GET opens an SSE stream, so `text/event-stream` must be listed. */
export function acceptsEventStream(accept: string | null): boolean {
  return acceptedTypes(accept).has('text/event-stream');
}

/** `application/json`, with or without parameters such as `charset`. */
export function isJsonContentType(contentType: string | null): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}
