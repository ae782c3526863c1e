/** @module The MCP tool annotations of a composite: never safer than the tools it calls. */

import type { JsonObject } from '../protocol/jsonrpc.js';

/**
 * Annotations for a composite from the annotations of every tool it calls (`undefined` for a tool that
 * declares none, which is read as the MCP defaults: not read-only, destructive, not idempotent, open world).
 * - readOnlyHint: true only if every called tool says readOnlyHint true;
 * - destructiveHint: true if any called tool is not read-only and does not say destructiveHint false;
 * - idempotentHint: true only if every called tool says true;
 * - openWorldHint: true unless every called tool says false.
 * A composite that calls no tool (only asks questions) is read-only, idempotent and closed-world.
 */
export function compositeAnnotations(called: (JsonObject | undefined)[]): JsonObject {
  const readOnly = called.every((a) => a?.readOnlyHint === true);
  const destructive = called.some((a) => a?.readOnlyHint !== true && a?.destructiveHint !== false);
  const idempotent = called.every((a) => a?.idempotentHint === true);
  const openWorld = !called.every((a) => a?.openWorldHint === false);
  return readOnly
    ? { readOnlyHint: true, idempotentHint: idempotent, openWorldHint: openWorld }
    : { readOnlyHint: false, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: openWorld };
}
