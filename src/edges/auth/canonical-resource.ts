/** @module The canonical URI of a protected resource (RFC 8707, MCP authorization): what a host names as `resource` and a token as `aud`. */

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * The canonical resource URI of `path` on the gateway reached at `base` (`http.publicUrl`, or the listen address):
 * scheme and host in lowercase, the default port dropped, no query, no fragment, and no trailing slash unless the
 * whole path is `/`. A path prefix of `base` (a proxy's `/switchboard`) is kept in front of `path`.
 */
export function canonicalResource(base: string, path = '/mcp'): string {
  const url = new URL(base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`a resource must be an http or https URL, not ${url.protocol}`);
  // URL already lowercases the scheme and the host; the port is dropped when it is the scheme's default.
  const port = url.port === '' || DEFAULT_PORTS[url.protocol] === url.port ? '' : `:${url.port}`;
  const prefix = url.pathname.replace(/\/+$/, '');
  const suffix = path === '' || path === '/' ? '' : path.startsWith('/') ? path : `/${path}`;
  const joined = `${prefix}${suffix}`.replace(/\/+$/, '');
  return `${url.protocol}//${url.hostname}${port}${joined === '' ? '/' : joined}`;
}

/** The spellings of one resource a token's `aud` may carry: as given, and with or without one trailing slash. */
export function resourceSpellings(resource: string): string[] {
  const bare = resource.replace(/\/$/, '');
  return bare === resource ? [resource, `${resource}/`] : [resource, bare];
}
