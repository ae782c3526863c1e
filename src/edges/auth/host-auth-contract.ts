/** @module The host authenticator's contract: what authenticating a request finds (its principal, or the status, error and `WWW-Authenticate` challenge to answer with). */

import type { Principal } from '../../access/principal.js';
import { bearerChallenge } from './challenge.js';
import type { BearerChallenge } from './challenge.js';

export type HostAuthError = 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'temporarily_unavailable';

/**
 * A refused request. `error` is absent when no Bearer credentials were sent (RFC 6750 §3.1: no error code then);
 * `wwwAuthenticate` is the header value to send (on 503 too: it still points a host at the metadata).
 */
export interface HostAuthFailure {
  ok: false;
  status: 400 | 401 | 403 | 503;
  error?: HostAuthError;
  description: string;
  wwwAuthenticate: string;
}

export type HostAuthOutcome = { ok: true; principal: Principal } | HostAuthFailure;

export interface HostAuthenticator {
  /** False for `none`: every request is the anonymous principal. */
  readonly enabled: boolean;
  /** Reads the request's `Authorization` value (null when absent). Never throws. */
  authenticate(authorization: string | null): Promise<HostAuthOutcome>;
  /** The Protected Resource Metadata document (RFC 9728) for `oauth`; undefined for `none` and `apiKeys` (nothing to discover). */
  metadata(): Record<string, unknown> | undefined;
}

/** What every challenge of one authenticator carries: `resource_metadata` (OAuth) or `realm` (API keys), and the required scopes. */
export interface ChallengeContext {
  realm?: string;
  resourceMetadata?: string;
  /** Space-separated required scopes, when any. */
  scope?: string;
}

function challenge(context: ChallengeContext, error?: Exclude<HostAuthError, 'temporarily_unavailable'>, description?: string): string {
  const params: BearerChallenge = {};
  if (context.realm !== undefined) params.realm = context.realm;
  if (error !== undefined) params.error = error;
  if (error === undefined || error === 'insufficient_scope') {
    // The MCP spec's order: resource_metadata then scope for a bare challenge, scope then resource_metadata after an error.
    if (error === undefined && context.resourceMetadata !== undefined) params.resource_metadata = context.resourceMetadata;
    if (context.scope !== undefined) params.scope = context.scope;
  }
  if (error !== undefined && context.resourceMetadata !== undefined) params.resource_metadata = context.resourceMetadata;
  if (description !== undefined) params.error_description = description;
  return bearerChallenge(params);
}

/** No Bearer credentials (no header, or another scheme): 401 with the bare challenge. */
export function credentialsRequired(context: ChallengeContext): HostAuthFailure {
  return { ok: false, status: 401, description: 'An access token is required', wwwAuthenticate: challenge(context) };
}

/** A Bearer header that is not `Bearer <token>`: 400 invalid_request (RFC 6750 §3.1). */
export function invalidRequest(context: ChallengeContext, description: string): HostAuthFailure {
  return { ok: false, status: 400, error: 'invalid_request', description, wwwAuthenticate: challenge(context, 'invalid_request', description) };
}

/** A token refused (expired, not ours, bad signature, unknown key): 401 invalid_token. */
export function invalidTokenOutcome(context: ChallengeContext, description: string): HostAuthFailure {
  return { ok: false, status: 401, error: 'invalid_token', description, wwwAuthenticate: challenge(context, 'invalid_token', description) };
}

/** A valid token lacking required scopes: 403 insufficient_scope, naming the scopes to ask for. */
export function insufficientScope(context: ChallengeContext): HostAuthFailure {
  const description = 'The access token lacks a required scope';
  return { ok: false, status: 403, error: 'insufficient_scope', description, wwwAuthenticate: challenge(context, 'insufficient_scope', description) };
}

/** Tokens cannot be checked now (keys, discovery or introspection unreachable or misconfigured): 503, so a host retries rather than signs in again. */
export function temporarilyUnavailable(context: ChallengeContext): HostAuthFailure {
  return {
    ok: false,
    status: 503,
    error: 'temporarily_unavailable',
    description: 'Access tokens cannot be checked right now; retry later',
    wwwAuthenticate: challenge(context),
  };
}
