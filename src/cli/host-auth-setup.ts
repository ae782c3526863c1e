/** @module How `serve` builds the host authenticator from `auth.hosts`: once it listens, the canonical URI of /mcp (the default audience and the metadata's resource) is known. */

import type { NormalizedConfig } from '../config/types.js';
import type { Logger } from '../core/log.js';
import { canonicalResource } from '../edges/auth/canonical-resource.js';
import { createHostAuthenticator } from '../edges/auth/host-authenticator.js';
import type { HostAuthenticator } from '../edges/auth/host-authenticator.js';
import { resourceMetadataUrl } from '../edges/auth/resource-metadata.js';
import type { HostAuth, HostAuthResult } from '../edges/http/host-identity.js';
import { isLoopbackHost } from './operator-setup.js';

export interface HostAuthSetup {
  /** What the HTTP edge checks every host request with. */
  readonly auth: HostAuth;
  /** The gateway listens at `baseUrl` (no trailing slash): the authenticator is built for its /mcp (or http.publicUrl's). */
  listening(baseUrl: string): void;
  /** The canonical URI of /mcp, once listening. */
  readonly resource: string | undefined;
}

const NOT_YET: HostAuthResult = { ok: false, status: 503, description: 'the gateway is starting', wwwAuthenticate: 'Bearer realm="switchboard"' };

export function setUpHostAuth(config: NormalizedConfig, listenHost: string, logger: Logger): HostAuthSetup {
  const settings = config.auth.hosts;
  if (settings.kind === 'none' && !isLoopbackHost(listenHost)) {
    logger.log('warn', `hosts do not authenticate (auth.hosts.type: none) and the gateway listens on ${listenHost}: whoever reaches it may call every tool; set auth.hosts (oauth or apiKeys) unless a proxy in front authenticates`);
  }
  let inner: HostAuthenticator | undefined;
  let resource: string | undefined;
  const auth: HostAuth = {
    enabled: settings.kind !== 'none',
    authenticate: (authorization) => (inner ? inner.authenticate(authorization) : Promise.resolve(NOT_YET)),
    metadata: () => inner?.metadata(),
  };
  return {
    auth,
    get resource() {
      return resource;
    },
    listening(baseUrl) {
      resource = canonicalResource(config.http.publicUrl ?? baseUrl, '/mcp');
      inner = createHostAuthenticator(settings, { resource, resourceMetadataUrl: resourceMetadataUrl(resource), logger });
      if (settings.kind === 'oauth') logger.log('info', 'hosts authenticate with OAuth access tokens', { issuer: settings.issuer, audience: settings.audience ?? resource });
      if (settings.kind === 'apiKeys') logger.log('info', 'hosts authenticate with API keys', { keys: settings.keys.length });
    },
  };
}
