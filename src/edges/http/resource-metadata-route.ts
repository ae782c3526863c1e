/** @module The Protected Resource Metadata (RFC 9728) as the host edge serves it: public, cacheable, readable from any origin. */

import { errorResponse } from './status.js';

/** Where it is served: the root form, and the form suffixed with the path of /mcp (RFC 9728 section 3.1). */
export const RESOURCE_METADATA_PATHS: readonly string[] = ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'];

/** GET gives the document (404 without one: API keys) (any origin may read it: browser-based hosts discover the issuer there); OPTIONS the preflight. */
export function resourceMetadataResponse(method: string, metadata: Record<string, unknown> | undefined): Response {
  if (metadata === undefined) return errorResponse('NOT_FOUND', 'Not Found: hosts authenticate with API keys here, there is no authorization server to discover');
  const cors = { 'access-control-allow-origin': '*' };
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { ...cors, 'access-control-allow-methods': 'GET', allow: 'GET, OPTIONS' } });
  if (method !== 'GET') return errorResponse('METHOD_NOT_ALLOWED', 'Method Not Allowed', { headers: { allow: 'GET, OPTIONS' } });
  return new Response(JSON.stringify(metadata), { status: 200, headers: { ...cors, 'content-type': 'application/json', 'cache-control': 'public, max-age=300' } });
}
