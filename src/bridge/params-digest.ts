/** @module The digest that binds a handle to the request it answers: SHA-256 of the canonical original params. */

import { createHash } from 'node:crypto';

import { canonicalJson } from '../protocol/canonical-json.js';
import type { JsonObject } from '../protocol/jsonrpc.js';

/** What a retry may change without being another request: this round's answers, the echoed state, and `_meta` (progress token, envelope). */
export const DIGEST_EXCLUDED_PARAMS = ['inputResponses', 'requestState', '_meta'] as const;

/**
 * base64url SHA-256 of the canonical JSON (sorted keys) of `params` without the excluded members, so
 * the same tool, arguments, prompt or URI give the same digest whatever the key order or the round.
 * Absent params digest as `{}`. Throws `TypeError` only for values JSON cannot hold.
 */
export function paramsDigest(params: JsonObject | undefined): string {
  const kept: JsonObject = { ...(params ?? {}) };
  for (const key of DIGEST_EXCLUDED_PARAMS) delete kept[key];
  return createHash('sha256').update(canonicalJson(kept), 'utf8').digest('base64url');
}

/**
 * base64url SHA-256 of a principal, under its own label: a handle names who may use it without
 * showing the principal (an account name, a token subject) to whoever reads the handle.
 */
export function principalDigest(principal: string): string {
  return createHash('sha256').update('switchboard/principal\u0000', 'utf8').update(principal, 'utf8').digest('base64url');
}
