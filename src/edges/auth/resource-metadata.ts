/** @module Protected Resource Metadata (RFC 9728): the document that tells a host which authorization server issues tokens for /mcp, and where it is served. */

/** The well-known prefix of RFC 9728 §3. */
export const RESOURCE_METADATA_PREFIX = '/.well-known/oauth-protected-resource';

/** The name shown for the gateway in the document. */
export const RESOURCE_NAME = 'Switchboard';

/**
 * Where the metadata of `resourceUrl` is, by RFC 9728 §3.1: the well-known prefix inserted between the host and the
 * resource's path (`https://h/mcp` → `https://h/.well-known/oauth-protected-resource/mcp`); a resource at the root
 * has no suffix. This is the URL the challenge's `resource_metadata` names.
 */
export function resourceMetadataUrl(resourceUrl: string): string {
  const url = new URL(resourceUrl);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${RESOURCE_METADATA_PREFIX}${path}`;
}

/**
 * The paths (on the resource's origin) the document is served at: the path-suffixed one of RFC 9728 §3.1 first, then
 * the bare prefix, which MCP clients of the 2025-03-26 era and resources at the root ask for.
 */
export function resourceMetadataPaths(resourceUrl: string): string[] {
  const suffixed = new URL(resourceMetadataUrl(resourceUrl)).pathname;
  return suffixed === RESOURCE_METADATA_PREFIX ? [RESOURCE_METADATA_PREFIX] : [suffixed, RESOURCE_METADATA_PREFIX];
}

/** What the document says. */
export interface ResourceMetadataInput {
  /** The canonical resource URI of /mcp. */
  resource: string;
  /** The authorization server's issuer identifier (`auth.hosts.issuer`). */
  issuer: string;
  /** The scopes every token must hold (listed only when there are some). */
  scopes: readonly string[];
}

/** The RFC 9728 §2 document, as JSON. */
export function protectedResourceMetadata(input: ResourceMetadataInput): Record<string, unknown> {
  return {
    resource: input.resource,
    authorization_servers: [input.issuer],
    bearer_methods_supported: ['header'],
    ...(input.scopes.length > 0 ? { scopes_supported: [...input.scopes] } : {}),
    resource_name: RESOURCE_NAME,
  };
}
