/** @module The client capabilities a 2026-07-28 upstream is told on each request, from what the host declared. */

import { upstreamClientCapabilities } from './capabilities.js';
import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';

/**
 * `io.modelcontextprotocol/clientCapabilities` for a request to a modern upstream on behalf of a host
 * of `hostRevision` (its own per-request capabilities for a modern host, its `initialize` ones for a
 * legacy host). The same relayable subset as {@link upstreamClientCapabilities}, then in 2026 form:
 * - `elicitation: {}` (form only, the 2025-06-18 shape) becomes `{form: {}}`;
 * - `roots.listChanged` is dropped (the notification no longer exists): `roots: {}`;
 * - never `tasks`, `experimental` or `extensions` (the gateway relays none of them).
 */
export function modernClientCapabilities(hostCapabilities: unknown, hostRevision: string): JsonObject {
  const relayable = upstreamClientCapabilities(hostCapabilities, hostRevision);
  const out: JsonObject = {};
  if (isObject(relayable.elicitation)) {
    const { form, url } = relayable.elicitation;
    out.elicitation = form === undefined && url === undefined ? { form: {} } : { ...(form ? { form: {} } : {}), ...(url ? { url: {} } : {}) };
  }
  if (isObject(relayable.sampling)) out.sampling = relayable.sampling;
  if (isObject(relayable.roots)) out.roots = {};
  return out;
}
