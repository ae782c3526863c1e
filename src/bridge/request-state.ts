/**
 * @module Signed, expiring request-state handles (`sb1.<payload>.<mac>`): sealing one for a host, and opening what a host sends back.
 */

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import type { JsonObject } from '../protocol/jsonrpc.js';
import { fromBase64url, toBase64url } from './base64url.js';
import type { HandleKey, HandleKeyRing } from './handle-keys.js';
import type { HandleKind, HandlePayload, PayloadRead } from './handle-payload.js';
import { decodePayload, encodePayload, HANDLE_VERSION } from './handle-payload.js';
import { paramsDigest, principalDigest } from './params-digest.js';

/** The text before the first dot: format and MAC scheme. Another `sbN` is a handle of a version this build does not know. */
export const HANDLE_PREFIX = `sb${HANDLE_VERSION}`;

/** Longest handle accepted; anything longer is malformed before any work is done. */
export const MAX_HANDLE_LENGTH = 140_000;

/** Longest upstream requestState a handle wraps (any content; JSON escaping and base64 make it at most ~8× longer). */
export const MAX_WRAPPED_STATE_LENGTH = 16_384;

/** Longest handle lifetime sealHandle accepts. */
export const MAX_HANDLE_TTL_MS = 24 * 60 * 60 * 1000;

/** Why a handle was refused. Checked in this order; binding failures are reported only for authentic handles. */
export type HandleFailure =
  | 'malformed'
  | 'unknown-version'
  | 'bad-mac'
  | 'expired'
  | 'wrong-principal'
  | 'wrong-upstream'
  | 'wrong-method'
  | 'wrong-params';

export interface HandleClaims {
  kind: HandleKind;
  upstream: string;
  /** Who may use the handle (an account, a token subject, a client id); stored only as a digest. */
  principal: string;
  method: string;
  /** The original params of the request being answered with `input_required`. */
  params: JsonObject | undefined;
  ttlMs: number;
  /** Required for `wrapped`, refused for `parked`. */
  upstreamState?: string;
  /** `parked` only: the gateway instance holding the call, named in the handle so that another instance forwards the retry there. */
  owner?: string;
}

export interface SealedHandle {
  /** The `requestState` the host gets. */
  text: string;
  payload: HandlePayload;
}

/**
 * Seals a handle: a fresh random id, the claims bound by digest, issued now and expiring after
 * `ttlMs`, MAC'd with the ring's signing key. Throws `TypeError`/`RangeError` on claims the gateway
 * should never produce (a wrapped handle without state, a TTL outside 1 ms … 24 h, a state longer
 * than {@link MAX_WRAPPED_STATE_LENGTH}, an empty upstream or method, params that are not JSON).
 */
export function sealHandle(claims: HandleClaims, keys: HandleKeyRing, now: number): SealedHandle {
  if (claims.upstream.length === 0 || claims.upstream.length > 256) throw new RangeError('sealHandle: the upstream name must have 1 to 256 characters');
  if (claims.method.length === 0 || claims.method.length > 256) throw new RangeError('sealHandle: the method must have 1 to 256 characters');
  if (!Number.isSafeInteger(now) || now < 0) throw new RangeError('sealHandle: now must be milliseconds since the epoch');
  if (!Number.isSafeInteger(claims.ttlMs) || claims.ttlMs < 1 || claims.ttlMs > MAX_HANDLE_TTL_MS) throw new RangeError('sealHandle: ttlMs must be 1 ms to 24 h');
  if ((claims.kind === 'wrapped') !== (claims.upstreamState !== undefined)) throw new TypeError('sealHandle: a wrapped handle needs upstreamState, a parked one has none');
  if (claims.upstreamState !== undefined && claims.upstreamState.length > MAX_WRAPPED_STATE_LENGTH) throw new RangeError('sealHandle: the upstream requestState is too long to wrap');
  if (claims.owner !== undefined && (claims.kind !== 'parked' || claims.owner.length === 0 || claims.owner.length > 200)) throw new RangeError('sealHandle: only a parked handle names an owner, of 1 to 200 characters');
  const payload: HandlePayload = {
    version: HANDLE_VERSION,
    kind: claims.kind,
    id: toBase64url(randomBytes(16)),
    upstream: claims.upstream,
    principal: principalDigest(claims.principal),
    method: claims.method,
    paramsDigest: paramsDigest(claims.params),
    issuedAt: now,
    expiresAt: now + claims.ttlMs,
  };
  if (claims.upstreamState !== undefined) payload.upstreamState = claims.upstreamState;
  if (claims.owner !== undefined) payload.owner = claims.owner;
  const signed = `${HANDLE_PREFIX}.${toBase64url(Buffer.from(encodePayload(payload), 'utf8'))}`;
  return { text: `${signed}.${toBase64url(mac(keys.signing, signed))}`, payload };
}

/** What the retry in hand is: who sends it, to which upstream, with which method and params. */
export interface HandleExpectation {
  principal: string;
  /** Undefined: not checked here; the caller matches the upstream the payload names (it learns it from the payload). */
  upstream: string | undefined;
  method: string;
  params: JsonObject | undefined;
}

export type HandleOpen = { ok: true; payload: HandlePayload; keyId: string } | { ok: false; reason: HandleFailure };

/**
 * Opens a handle a host sent back as `requestState`, and checks it belongs to this retry. Order:
 * shape (`malformed`, `unknown-version` for another `sbN`), the MAC against every key of the ring in
 * constant time (`bad-mac`), the payload (`malformed`, `unknown-version`), then expiry, principal,
 * upstream, method and params digest. Never throws: every failure is a typed reason. Replay is not
 * checked here (see redeemHandle).
 */
export function openHandle(text: unknown, keys: HandleKeyRing, expected: HandleExpectation, now: number): HandleOpen {
  try {
    return open(text, keys, expected, now);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
}

function open(text: unknown, keys: HandleKeyRing, expected: HandleExpectation, now: number): HandleOpen {
  if (typeof text !== 'string' || text.length > MAX_HANDLE_LENGTH) return { ok: false, reason: 'malformed' };
  const parts = text.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [prefix = '', payloadText = '', macText = ''] = parts;
  if (prefix !== HANDLE_PREFIX) return { ok: false, reason: /^sb\d+$/.test(prefix) ? 'unknown-version' : 'malformed' };
  const payloadBytes = fromBase64url(payloadText);
  const given = fromBase64url(macText);
  if (payloadBytes === undefined || payloadBytes.length === 0 || given === undefined || given.length !== 32) return { ok: false, reason: 'malformed' };

  const signed = `${prefix}.${payloadText}`;
  let keyId: string | undefined;
  for (const key of keys.verifying) {
    // Every key is tried, so the time taken does not tell which one matched.
    if (timingSafeEqual(mac(key, signed), given) && keyId === undefined) keyId = key.id;
  }
  if (keyId === undefined) return { ok: false, reason: 'bad-mac' };

  const read = readPayload(payloadBytes);
  if (!read.ok) return read;
  const payload = read.payload;
  if (now >= payload.expiresAt) return { ok: false, reason: 'expired' };
  if (payload.principal !== principalDigest(expected.principal)) return { ok: false, reason: 'wrong-principal' };
  if (expected.upstream !== undefined && payload.upstream !== expected.upstream) return { ok: false, reason: 'wrong-upstream' };
  if (payload.method !== expected.method) return { ok: false, reason: 'wrong-method' };
  if (payload.paramsDigest !== paramsDigest(expected.params)) return { ok: false, reason: 'wrong-params' };
  return { ok: true, payload, keyId };
}

/**
 * The instance a parked handle names as holding its call, read without checking the MAC: it only picks which instance
 * a retry is forwarded to (one recorded up, by the cluster's directory), and the owner checks the handle whole.
 * Undefined for anything that is not a parked handle naming an owner.
 */
export function handleOwnerOf(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.length > MAX_HANDLE_LENGTH) return undefined;
  const parts = text.split('.');
  if (parts.length !== 3 || parts[0] !== HANDLE_PREFIX) return undefined;
  const bytes = fromBase64url(parts[1] ?? '');
  if (bytes === undefined) return undefined;
  const read = readPayload(bytes);
  return read.ok ? read.payload.owner : undefined;
}

/** A payload's bytes as strict UTF-8 JSON, read strictly (decodePayload); never throws. */
function readPayload(bytes: Uint8Array): PayloadRead {
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  return decodePayload(json);
}

function mac(key: HandleKey, signed: string): Buffer {
  return createHmac('sha256', key.secret).update(signed, 'utf8').digest();
}
