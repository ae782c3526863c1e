/**
 * @module The authorizer of an HTTP upstream: one OAuthAuthorizer per upstream (its tokens shared by every session
 * to it), or, without an `auth` block, one that turns a challenge into a clear "not configured" failure.
 */

import type { StreamableHttpUpstreamSpec } from '../../../config/types.js';
import type { HttpAuthorizer } from '../streamable-http/client-transport.js';
import { UpstreamAuthError } from '../upstream-auth-error.js';
import type { AuthLogger } from './oauth-authorizer.js';
import { OAuthAuthorizer } from './oauth-authorizer.js';

/** Keyed by the spec object: one per upstream of one loaded config, dropped with it. */
const authorizers = new WeakMap<StreamableHttpUpstreamSpec, OAuthAuthorizer>();

export function upstreamAuthorizer(spec: StreamableHttpUpstreamSpec, label: string, logger?: AuthLogger): HttpAuthorizer {
  if (!spec.auth) return refusingAuthorizer(spec, label);
  let authorizer = authorizers.get(spec);
  if (!authorizer) {
    authorizer = new OAuthAuthorizer(new URL(spec.url), spec.auth, { label, ...(logger ? { logger } : {}) });
    authorizers.set(spec, authorizer);
  }
  return authorizer;
}

/** OAuth only when the config asks for it (docs/design/004-upstream-oauth.md): a challenge says what to add. */
function refusingAuthorizer(spec: StreamableHttpUpstreamSpec, label: string): HttpAuthorizer {
  return {
    headers: async () => ({}),
    challenge: async (response) => {
      const challenge = response.headers.get('www-authenticate');
      throw new UpstreamAuthError(
        'not-configured',
        `${label} asks for authorization (HTTP ${response.status}${challenge ? `, WWW-Authenticate: ${challenge.slice(0, 300)}` : ''}): ` +
          `add "auth: { type: oauth }" to upstream '${spec.name}' to let the gateway authorize, or give it a valid token in headers`,
      );
    },
  };
}
