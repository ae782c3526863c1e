/**
 * @module Why an HTTP upstream could not be authorized. Raised at the transport edge (OAuth), read by the core,
 * which reports it under its own catalogue codes (GW_ERR_UPSTREAM_AUTH_REQUIRED, GW_ERR_UPSTREAM_AUTH_FAILED).
 */

import { LocalError } from '../../core/errors/local.js';

/**
 * - `needs-person`: the authorization server shows a page (sign-in, consent) instead of redirecting back;
 *   `authorizationUrl` is where a person would have to go.
 * - `not-configured`: the upstream asks for authorization and its config has no `auth` block.
 * - `failed`: the OAuth exchange itself failed (discovery, registration, token endpoint, a resource mismatch,
 *   a scope the authorization server will not grant).
 */
export type UpstreamAuthProblem = 'needs-person' | 'not-configured' | 'failed';

export class UpstreamAuthError extends LocalError {
  override readonly code = 'upstream-auth';
  readonly problem: UpstreamAuthProblem;
  readonly authorizationUrl: string | undefined;

  constructor(problem: UpstreamAuthProblem, message: string, options: { authorizationUrl?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'UpstreamAuthError';
    this.problem = problem;
    this.authorizationUrl = options.authorizationUrl;
  }
}

/** The UpstreamAuthError in `error` or its chain of causes (transports wrap what their authorizer throws). */
export function findUpstreamAuthError(error: unknown): UpstreamAuthError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth += 1) {
    if (current instanceof UpstreamAuthError) return current;
  }
  return undefined;
}
