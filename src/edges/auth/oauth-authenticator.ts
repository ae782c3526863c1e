/** @module The OAuth 2.1 resource server for /mcp: a Bearer JWT checked against the issuer's keys, or an opaque token introspected, then the required scopes. */

import type { HostAuthSettings } from '../../config/types.js';
import type { Logger } from '../../core/log.js';
import { readBearer } from './authorization-header.js';
import { resourceSpellings } from './canonical-resource.js';
import { credentialsRequired, insufficientScope, invalidRequest, invalidTokenOutcome, temporarilyUnavailable } from './host-auth-contract.js';
import type { ChallengeContext, HostAuthenticator } from './host-auth-contract.js';
import { createIntrospector } from './introspection.js';
import { createIssuerMetadataSource } from './issuer-metadata.js';
import type { IssuerMetadataSource } from './issuer-metadata.js';
import { createJwtVerifier, looksLikeJwt } from './jwt-verifier.js';
import { protectedResourceMetadata } from './resource-metadata.js';
import { principalFromClaims } from './token-claims.js';
import { invalidToken } from './token-check.js';
import type { TokenCheck } from './token-check.js';
import { createThrottledWarning } from './throttled-warning.js';

export interface OAuthAuthenticatorOptions {
  resource: string;
  resourceMetadataUrl: string;
  logger: Logger;
  fetch: typeof fetch;
  now: () => number;
  jwksCooldownMs?: number;
}

/**
 * The audiences a token may name. A configured `audience` is matched exactly (it need not be a URL); the default, the
 * canonical resource, is also accepted with a trailing slash (or without, for a root resource), the one spelling
 * difference authorization servers and clients are seen to introduce into an RFC 8707 `resource`.
 */
export function acceptedAudiences(audience: string | undefined, resource: string): string[] {
  return audience !== undefined ? [audience] : resourceSpellings(resource);
}

export function createOAuthAuthenticator(settings: Extract<HostAuthSettings, { kind: 'oauth' }>, options: OAuthAuthenticatorOptions): HostAuthenticator {
  const { issuer } = settings;
  const audiences = acceptedAudiences(settings.audience, options.resource);
  const required = [...new Set(settings.scopes)];
  const context: ChallengeContext = { resourceMetadata: options.resourceMetadataUrl, ...(required.length > 0 ? { scope: required.join(' ') } : {}) };
  const warn = createThrottledWarning(options.logger, options.now);

  let discovery: IssuerMetadataSource | undefined;
  const metadata = () => (discovery ??= createIssuerMetadataSource({ issuer, fetch: options.fetch, now: options.now })).get();
  const { jwksUri, introspection } = settings;

  const verifyJwt = createJwtVerifier({
    issuer,
    audiences,
    algorithms: settings.algorithms,
    clockToleranceMs: settings.clockToleranceMs,
    jwksUri: async () => {
      if (jwksUri !== undefined) return jwksUri;
      const found = (await metadata()).jwks_uri;
      if (found === undefined) throw new Error(`the metadata of ${issuer} names no jwks_uri (set auth.hosts.jwksUri)`);
      return found;
    },
    fetch: options.fetch,
    now: options.now,
    ...(options.jwksCooldownMs === undefined ? {} : { jwksCooldownMs: options.jwksCooldownMs }),
  });

  const introspect =
    introspection === undefined
      ? undefined
      : createIntrospector({
          endpoint: async () => {
            if (introspection.endpoint !== undefined) return introspection.endpoint;
            const found = (await metadata()).introspection_endpoint;
            if (found === undefined) throw new Error(`the metadata of ${issuer} names no introspection_endpoint (set auth.hosts.introspection.endpoint)`);
            return found;
          },
          clientId: introspection.clientId,
          clientSecret: introspection.clientSecret,
          issuer,
          audiences,
          clockToleranceMs: settings.clockToleranceMs,
          fetch: options.fetch,
          now: options.now,
        });

  const check = (token: string): Promise<TokenCheck> => {
    if (looksLikeJwt(token)) return verifyJwt(token);
    if (introspect !== undefined) return introspect(token);
    return Promise.resolve(invalidToken('not a JWT, and auth.hosts.introspection is not set'));
  };

  return {
    enabled: true,
    async authenticate(authorization) {
      const credential = readBearer(authorization, 'token68');
      if (credential.kind === 'absent' || credential.kind === 'otherScheme') return credentialsRequired(context);
      if (credential.kind === 'malformed') return invalidRequest(context, 'The Authorization header must be Bearer followed by one token');
      const result = await check(credential.token);
      if (!result.ok && result.kind === 'unavailable') {
        warn('host access tokens cannot be checked', { issuer, reason: result.reason });
        return temporarilyUnavailable(context);
      }
      if (!result.ok) {
        options.logger.log('debug', 'host access token refused', { issuer, reason: result.reason });
        return invalidTokenOutcome(context, result.description);
      }
      const principal = principalFromClaims(result.claims, issuer, settings.groupsClaim);
      if (principal === undefined) {
        options.logger.log('debug', 'host access token refused', { issuer, reason: 'no sub' });
        return invalidTokenOutcome(context, 'The access token names no subject');
      }
      const missing = required.filter((scope) => !principal.scopes.includes(scope));
      if (missing.length > 0) {
        options.logger.log('debug', 'host access token lacks scopes', { issuer, subject: principal.subject, missing });
        return insufficientScope(context);
      }
      return { ok: true, principal };
    },
    metadata: () => protectedResourceMetadata({ resource: options.resource, issuer, scopes: required }),
  };
}
