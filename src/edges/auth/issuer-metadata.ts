/** @module Finds an authorization server's metadata (RFC 8414, then OpenID discovery), keeps it for an hour, and waits out a failure with backoff. */

/** The members of the metadata the gateway reads. */
export interface IssuerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
}

/** Discovery failed (every URL), or failed recently and is waiting before it tries again. */
export class IssuerMetadataUnavailable extends Error {
  override readonly name = 'IssuerMetadataUnavailable';
}

/** How long found metadata is used before it is looked up again. */
export const METADATA_TTL_MS = 60 * 60_000;
/** The first wait after a failed discovery; it doubles with each failure up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 60_000;
const FETCH_TIMEOUT_MS = 5_000;

/**
 * The URLs to try, in order (as the MCP authorization spec lists them): RFC 8414 with the well-known part inserted
 * before the issuer's path, then OpenID discovery inserted, then OpenID discovery appended to the path. An issuer
 * without a path has one URL of each kind.
 */
export function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

export interface IssuerMetadataSource {
  /** The metadata: cached, looked up, or (after a failed refresh) the last found. Throws IssuerMetadataUnavailable. */
  get(): Promise<IssuerMetadata>;
}

export interface IssuerMetadataOptions {
  issuer: string;
  fetch: typeof fetch;
  now: () => number;
}

function optionalUrl(document: Record<string, unknown>, name: string): string | undefined {
  const value = document[name];
  return typeof value === 'string' && URL.canParse(value) ? value : undefined;
}

/** One document from one URL: the metadata, or why it is not usable. */
async function fetchOne(url: string, options: IssuerMetadataOptions): Promise<IssuerMetadata | string> {
  let response: Response;
  try {
    response = await options.fetch(url, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    return `${url}: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return `${url}: HTTP ${response.status}`;
  }
  let document: unknown;
  try {
    document = await response.json();
  } catch {
    return `${url}: not JSON`;
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return `${url}: not a JSON object`;
  const fields = document as Record<string, unknown>;
  // RFC 8414 §3.3 and OpenID Discovery §4.3: the document must name exactly the issuer it was looked up for.
  if (fields['issuer'] !== options.issuer) return `${url}: names another issuer`;
  const jwksUri = optionalUrl(fields, 'jwks_uri');
  const introspection = optionalUrl(fields, 'introspection_endpoint');
  return { issuer: options.issuer, ...(jwksUri === undefined ? {} : { jwks_uri: jwksUri }), ...(introspection === undefined ? {} : { introspection_endpoint: introspection }) };
}

/** A metadata source for one issuer. Concurrent callers share one lookup. */
export function createIssuerMetadataSource(options: IssuerMetadataOptions): IssuerMetadataSource {
  const urls = discoveryUrls(options.issuer);
  let found: { metadata: IssuerMetadata; until: number } | undefined;
  let retryAt = 0;
  let backoff = FIRST_BACKOFF_MS;
  let lastFailure = '';
  let pending: Promise<IssuerMetadata> | undefined;

  const lookUp = async (): Promise<IssuerMetadata> => {
    const failures: string[] = [];
    for (const url of urls) {
      const result = await fetchOne(url, options);
      if (typeof result !== 'string') {
        found = { metadata: result, until: options.now() + METADATA_TTL_MS };
        backoff = FIRST_BACKOFF_MS;
        retryAt = 0;
        return result;
      }
      failures.push(result);
    }
    lastFailure = failures.join('; ');
    retryAt = options.now() + backoff;
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    if (found !== undefined) return found.metadata; // stale but better than nothing while the server is away
    throw new IssuerMetadataUnavailable(`no metadata for ${options.issuer}: ${lastFailure}`);
  };

  return {
    async get() {
      const now = options.now();
      if (found !== undefined && (now < found.until || now < retryAt)) return found.metadata;
      if (now < retryAt) throw new IssuerMetadataUnavailable(`no metadata for ${options.issuer} (next try in ${Math.ceil((retryAt - now) / 1000)} s): ${lastFailure}`);
      pending ??= lookUp().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}
