/** @module Capability arithmetic for a gateway: what to promise an upstream, what to offer a host. */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';

/** Client capabilities the gateway knows how to relay from an upstream to a host. */
const RELAYABLE_CLIENT_CAPABILITIES = ['sampling', 'elicitation', 'roots'] as const;

/**
 * What the gateway declares to an upstream on behalf of one host: only the relayable capabilities
 * the host itself declared, copied as declared. Never more (no `tasks`, no `experimental`).
 */
export function upstreamClientCapabilities(hostCapabilities: unknown): JsonObject {
  const declared = isObject(hostCapabilities) ? hostCapabilities : {};
  const out: JsonObject = {};
  for (const name of RELAYABLE_CLIENT_CAPABILITIES) {
    const value = declared[name];
    if (isObject(value)) out[name] = structuredClone(value);
  }
  return out;
}

/** The client capability a server-to-client request needs, or undefined when it needs none. */
export function capabilityForServerRequest(method: string): (typeof RELAYABLE_CLIENT_CAPABILITIES)[number] | undefined {
  switch (method) {
    case 'elicitation/create':
      return 'elicitation';
    case 'sampling/createMessage':
      return 'sampling';
    case 'roots/list':
      return 'roots';
    default:
      return undefined;
  }
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
