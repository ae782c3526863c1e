/** @module The HTTP headers of a 2026-07-28 request: which are required, checking them against the body, building them for an upstream. */

import { decodeHeaderValue, encodeHeaderValue } from './header-value-encoding.js';
import type { HeaderSource } from './header-source.js';
import { MCP_HEADER } from './header-source.js';
import type { JsonRpcErrorObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import { headerMismatchError, invalidParamsError } from './modern-errors.js';
import { envelopeProtocolVersion } from './request-envelope.js';

/** The methods whose target travels in `Mcp-Name`, and the param that holds it. */
export const NAMED_METHODS: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** The param `Mcp-Name` mirrors for `method`, if it has one. */
export function nameParamOf(method: string): 'name' | 'uri' | undefined {
  return Object.hasOwn(NAMED_METHODS, method) ? NAMED_METHODS[method] : undefined;
}

export type HeaderCheck = { ok: true } | { ok: false; error: JsonRpcErrorObject };

/**
 * Checks the headers of a modern request (or notification) against its body, in this order:
 * `MCP-Protocol-Version` present and equal to the envelope's version (when the envelope has one: a
 * missing version is the envelope check's -32602); `Mcp-Method` present and equal to the method;
 * for tools/call, prompts/get and resources/read, `Mcp-Name` present, well encoded, and equal to the
 * name or uri. Any failure is -32020 naming the header; a name or uri that is not a string in the
 * body is -32602. Values are compared exactly (method names are case-sensitive). Does not check the
 * version is served (the envelope check's -32022) nor `Mcp-Param-*` (that needs the tool's schema).
 */
export function checkModernHeaders(headers: HeaderSource, message: { method: string; params?: unknown }): HeaderCheck {
  const version = headers.get(MCP_HEADER.protocolVersion);
  if (version === null || version === undefined) return mismatch(MCP_HEADER.protocolVersion, 'MCP-Protocol-Version is required on every 2026-07-28 request');
  const envelopeVersion = envelopeProtocolVersion(message.params);
  if (envelopeVersion !== undefined && version !== envelopeVersion) {
    return mismatch(MCP_HEADER.protocolVersion, `MCP-Protocol-Version (${version}) must equal _meta io.modelcontextprotocol/protocolVersion (${envelopeVersion})`);
  }
  const method = headers.get(MCP_HEADER.method);
  if (method === null || method === undefined) return mismatch(MCP_HEADER.method, 'Mcp-Method is required on every 2026-07-28 request');
  if (method !== message.method) return mismatch(MCP_HEADER.method, `Mcp-Method (${method}) must equal the method (${message.method})`);

  const param = nameParamOf(message.method);
  if (param === undefined) return { ok: true };
  const target = isObject(message.params) ? message.params[param] : undefined;
  if (typeof target !== 'string') return { ok: false, error: invalidParamsError(param, `${message.method} needs a string ${param}`) };
  const raw = headers.get(MCP_HEADER.name);
  if (raw === null || raw === undefined) return mismatch(MCP_HEADER.name, `Mcp-Name is required on ${message.method}`);
  const decoded = decodeHeaderValue(raw);
  if (!decoded.ok) return mismatch(MCP_HEADER.name, `Mcp-Name is malformed: ${decoded.reason}`);
  if (decoded.value !== target) return mismatch(MCP_HEADER.name, `Mcp-Name must equal params.${param}`);
  return { ok: true };
}

function mismatch(header: string, message: string): HeaderCheck {
  return { ok: false, error: headerMismatchError(header, message) };
}

/**
 * The MCP headers of a request the gateway sends to a modern upstream: the version from the
 * envelope, the method, and the encoded name or uri when the method has one. Omits what the body
 * lacks (a request without envelope gets no version header), so the upstream's own check speaks.
 */
export function modernRequestHeaders(message: { method: string; params?: unknown }): Record<string, string> {
  const out: Record<string, string> = { [MCP_HEADER.method]: message.method };
  const version = envelopeProtocolVersion(message.params);
  if (version !== undefined) out[MCP_HEADER.protocolVersion] = version;
  const param = nameParamOf(message.method);
  const target = param !== undefined && isObject(message.params) ? message.params[param] : undefined;
  if (typeof target === 'string') out[MCP_HEADER.name] = encodeHeaderValue(target);
  return out;
}
