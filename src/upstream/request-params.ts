/** @module The params a request to an upstream goes out with: the 2026-07-28 per-request envelope and our progress token added to the caller's. */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import { withRequestEnvelope } from '../protocol/request-envelope.js';

/** `params` with `envelope` (if any) and then `_meta.progressToken` (if any) added; undefined stays undefined when neither is. */
export function outgoingParams(params: JsonObject | undefined, envelope: RequestEnvelope | undefined, progressToken: number | undefined): JsonObject | undefined {
  let out = params;
  if (envelope) out = withRequestEnvelope(params, envelope);
  if (progressToken !== undefined) {
    const meta = isObject(out?._meta) ? out._meta : {};
    out = { ...out, _meta: { ...meta, progressToken } };
  }
  return out;
}
