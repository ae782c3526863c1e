/**
 * @module The cluster link's wire (design 013): session ids that name the instance owning them, and the signature on a
 * request one instance forwards to another (HMAC-SHA256 with `cluster.secret` over the request, the client's address
 * and the time), which is what keeps forwarded requests from ever being served to hosts.
 */

import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** The header carrying a forwarded request's signature: `v1.<from, base64url>.<unix ms>.<mac, base64url>`. */
export const CLUSTER_HEADER = 'switchboard-cluster';
/** The header carrying the host's address as the first instance saw it (signed with the rest). */
export const CLIENT_ADDRESS_HEADER = 'switchboard-client-address';
/** How far a forwarded request's time may be from the receiver's clock. */
export const MAX_CLOCK_SKEW_MS = 60_000;

const VERSION = 'v1';

/** A session id naming its owner: `<owner, base64url>.<uuid>` (visible ASCII, as the Streamable HTTP transport requires). */
export function ownedSessionId(owner: string): string {
  return `${Buffer.from(owner, 'utf8').toString('base64url')}.${randomUUID()}`;
}

/** The instance a session id names, or undefined for an id of no owner (a gateway that is not in a cluster made it). */
export function ownerOfSessionId(id: string): string | undefined {
  const dot = id.indexOf('.');
  if (dot <= 0 || dot > 300) return undefined;
  const tag = id.slice(0, dot);
  if (!/^[A-Za-z0-9_-]+$/.test(tag)) return undefined;
  const owner = Buffer.from(tag, 'base64url').toString('utf8');
  return owner.length > 0 && Buffer.from(owner, 'utf8').toString('base64url') === tag ? owner : undefined;
}

/** What a signature covers besides the sender and the time. */
export interface SignedParts {
  method: string;
  /** The path and query as sent, e.g. `/messages?sessionId=…`. */
  target: string;
  body: Uint8Array;
  /** The host's address as the first instance saw it ('' when unknown). */
  clientAddress: string;
}

function macOf(secret: string, from: string, at: number, parts: SignedParts): Buffer {
  const bodyDigest = createHash('sha256').update(parts.body).digest('base64url');
  const text = [VERSION, from, String(at), parts.method, parts.target, bodyDigest, parts.clientAddress].join('\n');
  return createHmac('sha256', secret).update(text, 'utf8').digest();
}

/** The signature header for a request `from` forwards now. */
export function signForward(secret: string, from: string, at: number, parts: SignedParts): string {
  return [VERSION, Buffer.from(from, 'utf8').toString('base64url'), String(at), macOf(secret, from, at, parts).toString('base64url')].join('.');
}

export type ForwardCheck = { ok: true; from: string } | { ok: false; reason: string };

/** Checks a signature header against the request it came with; never throws. */
export function verifyForward(secret: string, header: string, now: number, parts: SignedParts): ForwardCheck {
  const fields = header.split('.');
  if (fields.length !== 4 || fields[0] !== VERSION) return { ok: false, reason: 'not a v1 cluster signature' };
  const [, fromTag = '', atText = '', macText = ''] = fields;
  if (!/^[A-Za-z0-9_-]+$/.test(fromTag) || !/^\d{1,16}$/.test(atText) || !/^[A-Za-z0-9_-]{43}$/.test(macText)) return { ok: false, reason: 'a malformed cluster signature' };
  const at = Number(atText);
  if (Math.abs(now - at) > MAX_CLOCK_SKEW_MS) return { ok: false, reason: 'a cluster signature outside the allowed clock skew' };
  const from = Buffer.from(fromTag, 'base64url').toString('utf8');
  const expected = macOf(secret, from, at, parts);
  const given = Buffer.from(macText, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'a cluster signature that does not verify' };
  return { ok: true, from };
}
