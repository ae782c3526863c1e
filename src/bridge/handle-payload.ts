/** @module What a request-state handle says (its payload), as JSON with short keys, and the strict reading of it. */

import { isObject } from '../protocol/jsonrpc.js';

/** The payload format version; `v` in the JSON, `sb1.` in the handle text. */
export const HANDLE_VERSION = 1;

/**
 * `parked`: the gateway holds a legacy upstream's call mid-question (pair 4: modern host, legacy
 * upstream). `wrapped`: a modern upstream's own `requestState`, carried inside (pair 2).
 */
export type HandleKind = 'parked' | 'wrapped';

export interface HandlePayload {
  version: typeof HANDLE_VERSION;
  kind: HandleKind;
  /** 128 random bits, base64url: names the parked round (and its replay ledger entry). */
  id: string;
  /** The upstream's configured name: a retry goes back to the same upstream or nowhere. */
  upstream: string;
  /** {@link principalDigest} of who may use the handle. */
  principal: string;
  /** The request method the handle answers (tools/call, prompts/get, resources/read). */
  method: string;
  /** {@link paramsDigest} of the original params. */
  paramsDigest: string;
  /** Milliseconds since the epoch. */
  issuedAt: number;
  /** Milliseconds since the epoch; the handle is refused from this instant on. */
  expiresAt: number;
  /** `wrapped` only: the upstream's requestState, exactly as it was given. */
  upstreamState?: string;
  /** `parked` only, and only on a gateway of several instances: the instance holding the parked call (`o`). */
  owner?: string;
}

/** The payload as JSON text (short keys; `s` only for wrapped handles). */
export function encodePayload(payload: HandlePayload): string {
  const wire: Record<string, unknown> = {
    v: payload.version,
    k: payload.kind,
    id: payload.id,
    u: payload.upstream,
    p: payload.principal,
    m: payload.method,
    d: payload.paramsDigest,
    iat: payload.issuedAt,
    exp: payload.expiresAt,
  };
  if (payload.kind === 'wrapped') wire.s = payload.upstreamState;
  if (payload.owner !== undefined) wire.o = payload.owner;
  return JSON.stringify(wire);
}

export type PayloadRead = { ok: true; payload: HandlePayload } | { ok: false; reason: 'malformed' | 'unknown-version' };

/** Longest instance id a parked handle names (`cluster.id` is at most 200 characters). */
const MAX_OWNER_LENGTH = 200;
const DIGEST = /^[A-Za-z0-9_-]{43}$/;
const ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * Reads payload JSON strictly: a version other than 1 is `unknown-version`; anything else off —
 * unknown or missing keys, wrong types, a bad id or digest, an upstream state on a parked handle or
 * none on a wrapped one, times that are not safe integers or end before they start — is `malformed`.
 * Never throws.
 */
export function decodePayload(json: string): PayloadRead {
  let wire: unknown;
  try {
    wire = JSON.parse(json);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!isObject(wire)) return { ok: false, reason: 'malformed' };
  if (wire.v !== HANDLE_VERSION) return { ok: false, reason: Number.isInteger(wire.v) ? 'unknown-version' : 'malformed' };
  const { k, id, u, p, m, d, iat, exp, s, o } = wire;
  const allowed = (k === 'wrapped' ? 10 : 9) + (o === undefined ? 0 : 1);
  if (Object.keys(wire).length !== allowed) return { ok: false, reason: 'malformed' };
  if (k !== 'parked' && k !== 'wrapped') return { ok: false, reason: 'malformed' };
  if (typeof id !== 'string' || !ID.test(id)) return { ok: false, reason: 'malformed' };
  if (typeof u !== 'string' || u.length === 0 || typeof m !== 'string' || m.length === 0) return { ok: false, reason: 'malformed' };
  if (typeof p !== 'string' || !DIGEST.test(p) || typeof d !== 'string' || !DIGEST.test(d)) return { ok: false, reason: 'malformed' };
  if (!Number.isSafeInteger(iat) || !Number.isSafeInteger(exp) || (exp as number) <= (iat as number)) return { ok: false, reason: 'malformed' };
  if (k === 'wrapped' && typeof s !== 'string') return { ok: false, reason: 'malformed' };
  if (o !== undefined && (k !== 'parked' || typeof o !== 'string' || o.length === 0 || o.length > MAX_OWNER_LENGTH)) return { ok: false, reason: 'malformed' };
  const payload: HandlePayload = { version: HANDLE_VERSION, kind: k, id, upstream: u, principal: p, method: m, paramsDigest: d, issuedAt: iat as number, expiresAt: exp as number };
  if (k === 'wrapped') payload.upstreamState = s as string;
  if (o !== undefined) payload.owner = o as string;
  return { ok: true, payload };
}
