/** @module Who sent a 2026-07-28 request over HTTP, as far as the gateway can tell: the principal its requestState handles are bound to. */

import { createHash } from 'node:crypto';

import { principalKey } from '../../access/principal.js';
import type { RequestEnvelope } from '../../protocol/request-envelope.js';
import { identityOf } from './host-identity.js';

/** The client address of each request, noted by the node adapter (web-standard Requests do not carry it). */
const remoteAddresses = new WeakMap<Request, string>();

export function noteRemoteAddress(req: Request, address: string | undefined): void {
  if (address !== undefined) remoteAddresses.set(req, address);
}

/** The client address noted for `req`, if any (the cluster link carries it to the instance a request is forwarded to). */
export function remoteAddressOf(req: Request): string | undefined {
  return remoteAddresses.get(req);
}

/**
 * The principal of a modern request (design 009): when hosts authenticate (`auth.hosts`), its verified (issuer,
 * subject); otherwise the digest of its Authorization header when it has one
 * (a host behind an authenticating proxy, or with its own token), else its client address and clientInfo
 * name. Without gateway authentication this only separates hosts that do not share an address and name.
 */
export function principalOf(req: Request, envelope: RequestEnvelope): string {
  // An authenticated host is its verified (issuer, subject): a refreshed token is the same principal.
  const identity = identityOf(req);
  if (identity !== undefined) return `principal:${principalKey(identity)}`;
  const authorization = req.headers.get('authorization');
  if (authorization !== null && authorization !== '') {
    return `authorization:${createHash('sha256').update(authorization).digest('base64url')}`;
  }
  return `address:${remoteAddresses.get(req) ?? 'unknown'}|client:${envelope.clientInfo?.name ?? ''}`;
}

/**
 * Whom the per-principal session cap (`http.maxSessionsPerPrincipal`) counts a request against: its verified
 * principal when hosts authenticate, else its client address (an Authorization header or a clientInfo name is the
 * client's to choose, so without authentication they would let one client open sessions under any number of principals).
 */
export function sessionCapKey(req: Request): string {
  const identity = identityOf(req);
  if (identity !== undefined) return `principal:${principalKey(identity)}`;
  return `address:${remoteAddresses.get(req) ?? 'unknown'}`;
}
