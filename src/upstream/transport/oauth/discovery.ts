/**
 * @module Finds an upstream's authorization server: its protected resource metadata (RFC 9728: the challenge's
 * `resource_metadata`, else the path-based then the root well-known URL), then the authorization server metadata
 * (RFC 8414 with the OpenID Connect fallbacks). An upstream without resource metadata is treated as a 2025-03-26
 * server: its origin is the authorization server, with default endpoints when it publishes no metadata either.
 */

import { LocalError } from '../../../core/errors/local.js';
import type { AuthorizationServerMetadata, FetchLike, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/client';
import {
  checkResourceAllowed,
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  resourceUrlFromServerUrl,
} from '@modelcontextprotocol/client';

export interface Discovery {
  /** The `resource_metadata` URL this discovery started from, if the challenge named one. */
  resourceMetadataUrl: string | undefined;
  resourceMetadata: OAuthProtectedResourceMetadata | undefined;
  /** The issuer URL the metadata was looked up for (or the upstream's origin for a 2025-03-26 server). */
  authorizationServerUrl: string;
  /** Undefined when the server publishes none: the SDK then uses /authorize, /token and /register on it. */
  metadata: AuthorizationServerMetadata | undefined;
  /** The RFC 8707 resource indicator: the metadata's `resource`, verbatim; none for a 2025-03-26 server. */
  resource: string | undefined;
}

/** Discovery failed in a way the operator must hear about (the message says what was wrong). */
export class DiscoveryError extends LocalError {
  override name = 'DiscoveryError';
  override readonly code = 'oauth-discovery';
}

export async function discover(serverUrl: URL, resourceMetadataUrl: URL | undefined, fetchFn: FetchLike): Promise<Discovery> {
  let resourceMetadata: OAuthProtectedResourceMetadata | undefined;
  try {
    resourceMetadata = await discoverOAuthProtectedResourceMetadata(serverUrl, resourceMetadataUrl ? { resourceMetadataUrl } : {}, fetchFn);
  } catch (error) {
    // Named by the upstream itself, the document must be there; otherwise its absence means a 2025-03-26 server.
    if (resourceMetadataUrl || error instanceof TypeError) {
      throw new DiscoveryError(`cannot read the protected resource metadata${resourceMetadataUrl ? ` at ${resourceMetadataUrl.href}` : ''}: ${messageOf(error)}`, { cause: error });
    }
  }
  if (!resourceMetadata) return legacyDiscovery(serverUrl, fetchFn);

  const expected = resourceUrlFromServerUrl(serverUrl);
  if (!checkResourceAllowed({ requestedResource: expected, configuredResource: resourceMetadata.resource })) {
    throw new DiscoveryError(`the protected resource metadata is for ${resourceMetadata.resource}, not for ${expected.href}: refusing to ask for a token for it`);
  }
  const authorizationServerUrl = resourceMetadata.authorization_servers?.[0];
  if (!authorizationServerUrl) throw new DiscoveryError('the protected resource metadata names no authorization server');
  const metadata = await discoverAuthorizationServerMetadata(authorizationServerUrl, { fetchFn }).catch((error: unknown) => {
    throw new DiscoveryError(`cannot read the metadata of authorization server ${authorizationServerUrl}: ${messageOf(error)}`, { cause: error });
  });
  return { resourceMetadataUrl: resourceMetadataUrl?.href, resourceMetadata, authorizationServerUrl, metadata, resource: resourceMetadata.resource };
}

/**
 * 2025-03-26: the authorization server is the MCP server's origin. Its metadata is read from that origin, which is
 * the trust the 2025-03-26 revision placed in it, so the RFC 8414 issuer check is not applied (such servers often
 * publish an issuer with a path).
 */
async function legacyDiscovery(serverUrl: URL, fetchFn: FetchLike): Promise<Discovery> {
  const authorizationServerUrl = new URL('/', serverUrl).href;
  const metadata = await discoverAuthorizationServerMetadata(authorizationServerUrl, { fetchFn, skipIssuerValidation: true }).catch((error: unknown) => {
    throw new DiscoveryError(`cannot read the authorization server metadata of ${authorizationServerUrl}: ${messageOf(error)}`, { cause: error });
  });
  return { resourceMetadataUrl: undefined, resourceMetadata: undefined, authorizationServerUrl, metadata, resource: undefined };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
