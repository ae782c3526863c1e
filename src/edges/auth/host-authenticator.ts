/** @module Authenticates the hosts calling /mcp as `auth.hosts` says (none, OAuth 2.1 bearer tokens, API keys), and gives the Protected Resource Metadata. */

import { ANONYMOUS } from '../../access/principal.js';
import type { HostAuthSettings } from '../../config/types.js';
import { systemClock } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import { createApiKeyAuthenticator } from './api-key-authenticator.js';
import type { HostAuthenticator } from './host-auth-contract.js';
import { createOAuthAuthenticator } from './oauth-authenticator.js';

export type { HostAuthenticator, HostAuthError, HostAuthFailure, HostAuthOutcome } from './host-auth-contract.js';

export interface HostAuthenticatorOptions {
  /** The canonical URI of /mcp (canonicalResource): the document's `resource` and the default audience. */
  resource: string;
  /** Where the document is served (resourceMetadataUrl(resource)), named in every OAuth challenge. */
  resourceMetadataUrl: string;
  logger: Logger;
  /** For discovery, keys and introspection (default: the global fetch). */
  fetch?: typeof fetch;
  /** Milliseconds since the epoch (default: the system clock): token times, caches, backoff. */
  now?: () => number;
  /** How soon after fetching keys an unknown `kid` may fetch them again (default 30 s, jose's). */
  jwksCooldownMs?: number;
}

const anonymous: HostAuthenticator = {
  enabled: false,
  authenticate: () => Promise.resolve({ ok: true, principal: ANONYMOUS }),
  metadata: () => undefined,
};

export function createHostAuthenticator(settings: HostAuthSettings, options: HostAuthenticatorOptions): HostAuthenticator {
  switch (settings.kind) {
    case 'none':
      return anonymous;
    case 'oauth':
      return createOAuthAuthenticator(settings, {
        resource: options.resource,
        resourceMetadataUrl: options.resourceMetadataUrl,
        logger: options.logger,
        fetch: options.fetch ?? ((input, init) => fetch(input, init)),
        now: options.now ?? systemClock.now,
        ...(options.jwksCooldownMs === undefined ? {} : { jwksCooldownMs: options.jwksCooldownMs }),
      });
    case 'apiKeys':
      return createApiKeyAuthenticator(settings.keys, options.logger);
  }
}
