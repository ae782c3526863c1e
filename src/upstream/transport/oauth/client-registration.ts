/**
 * @module Which OAuth client the gateway is at an authorization server: the pre-registered one from the config,
 * else its Client ID Metadata Document URL when the server supports those, else one registered dynamically
 * (RFC 7591).
 */

import { LocalError } from '../../../core/errors/local.js';
import type { FetchLike, OAuthClientInformationMixed, OAuthClientMetadata } from '@modelcontextprotocol/client';
import { registerClient, resolveClientMetadata } from '@modelcontextprotocol/client';

import type { OAuthSettings } from '../../../config/types.js';
import type { Discovery } from './discovery.js';

export type ClientSource = 'configured' | 'metadata-document' | 'registered';

export interface OAuthClient {
  information: OAuthClientInformationMixed;
  source: ClientSource;
  /** The authorization server it belongs to (a client id means nothing elsewhere). */
  authorizationServerUrl: string;
}

/** Registration is impossible or refused; the message says what the operator can do. */
export class RegistrationError extends LocalError {
  override name = 'RegistrationError';
  override readonly code = 'oauth-registration';
}

const CLIENT_NAME = 'Switchboard MCP gateway';
/** Token endpoint authentication methods the SDK can perform, in the order the gateway prefers them. */
const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;

export async function obtainClient(settings: OAuthSettings, discovery: Discovery, scope: string | undefined, fetchFn: FetchLike): Promise<OAuthClient> {
  const { authorizationServerUrl, metadata } = discovery;
  if (settings.clientId !== undefined) {
    const information = { client_id: settings.clientId, ...(settings.clientSecret === undefined ? {} : { client_secret: settings.clientSecret }) };
    return { information, source: 'configured', authorizationServerUrl };
  }
  if (settings.clientMetadataUrl !== undefined && metadata?.client_id_metadata_document_supported === true) {
    return { information: { client_id: settings.clientMetadataUrl }, source: 'metadata-document', authorizationServerUrl };
  }
  if (metadata && !metadata.registration_endpoint) {
    throw new RegistrationError(
      `authorization server ${authorizationServerUrl} offers no dynamic client registration${settings.clientMetadataUrl === undefined ? ' nor client metadata documents' : ''}: ` +
        'register a client there and set auth.clientId (and auth.clientSecret)',
    );
  }
  const clientMetadata = resolveClientMetadata({ clientMetadata: registrationMetadata(settings, metadata?.token_endpoint_auth_methods_supported), redirectUrl: settings.redirectUrl });
  try {
    const information = await registerClient(authorizationServerUrl, { metadata, clientMetadata, ...(scope === undefined ? {} : { scope }), fetchFn });
    return { information, source: 'registered', authorizationServerUrl };
  } catch (error) {
    throw new RegistrationError(`dynamic client registration at ${metadata?.registration_endpoint ?? new URL('/register', authorizationServerUrl).href} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** What the gateway registers as: a client of the authorization code flow with refresh tokens, at the configured redirect URI. */
function registrationMetadata(settings: OAuthSettings, supportedMethods: string[] | undefined): OAuthClientMetadata {
  const method = AUTH_METHODS.find((candidate) => supportedMethods?.includes(candidate));
  return {
    client_name: CLIENT_NAME,
    redirect_uris: [settings.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...(method === undefined ? {} : { token_endpoint_auth_method: method }),
  };
}
