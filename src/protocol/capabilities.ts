/** @module Capability arithmetic for a gateway: what to promise an upstream, what to offer a host. */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import { LATEST_LEGACY_REVISION, revisionAtLeast } from './revisions.js';

/** What {@link upstreamClientCapabilities} builds: only these keys, each a fresh object when present. */
export type RelayableCapabilities = {
  sampling?: { tools?: JsonObject; context?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  roots?: { listChanged?: true };
};

/**
 * What the gateway declares to an upstream on behalf of one host: only what the host declared, only
 * what its revision defines, only what the gateway can relay. Never `tasks` or `experimental`.
 * - `elicitation` only from 2025-06-18; `elicitation.form`/`.url` only from 2025-11-25 (`{}` = form only);
 * - `sampling.tools` and `sampling.context` only from 2025-11-25, and only if declared;
 * - `roots.listChanged` only if declared.
 */
export function upstreamClientCapabilities(hostCapabilities: unknown, hostRevision: string = LATEST_LEGACY_REVISION): RelayableCapabilities {
  const declared = isObject(hostCapabilities) ? hostCapabilities : {};
  const modern = revisionAtLeast(hostRevision, '2025-11-25');
  const out: RelayableCapabilities = {};
  if (isObject(declared.sampling)) {
    const sampling: NonNullable<RelayableCapabilities['sampling']> = {};
    if (modern && isObject(declared.sampling.tools)) sampling.tools = {};
    if (modern && isObject(declared.sampling.context)) sampling.context = {};
    out.sampling = sampling;
  }
  if (isObject(declared.elicitation) && revisionAtLeast(hostRevision, '2025-06-18')) {
    const elicitation: NonNullable<RelayableCapabilities['elicitation']> = {};
    if (modern && isObject(declared.elicitation.form)) elicitation.form = {};
    if (modern && isObject(declared.elicitation.url)) elicitation.url = {};
    out.elicitation = elicitation;
  }
  if (isObject(declared.roots)) out.roots = declared.roots.listChanged === true ? { listChanged: true } : {};
  return out;
}

/**
 * The server capabilities the gateway offers hosts: the union of its upstreams' offers. List
 * changes are always announced, since the gateway itself changes the merged lists when an
 * upstream comes or goes. With nothing known yet, every list feature is offered.
 */
export function gatewayServerCapabilities(upstreams: JsonObject[]): JsonObject {
  if (upstreams.length === 0) {
    return { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true }, logging: {}, completions: {} };
  }
  const out: JsonObject = {};
  for (const caps of upstreams) {
    if (isObject(caps.tools)) out.tools = { listChanged: true };
    if (isObject(caps.prompts)) out.prompts = { listChanged: true };
    if (isObject(caps.resources)) {
      const previous = isObject(out.resources) ? out.resources : {};
      out.resources = { ...previous, listChanged: true, ...(caps.resources.subscribe === true ? { subscribe: true } : {}) };
    }
    if (isObject(caps.logging)) out.logging = {};
    if (isObject(caps.completions)) out.completions = {};
  }
  return out;
}
