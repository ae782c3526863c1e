/**
 * @module 2026-07-28 `Mcp-Param-*` headers: tool arguments whose input schema marks them `x-mcp-header`
 * travel as headers too; a client sends them, a server checks them against the body (-32020).
 */

import type { HeaderSource } from './header-source.js';
import { decodeHeaderValue, encodeHeaderValue } from './header-value-encoding.js';
import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import { headerMismatchError } from './modern-errors.js';
import type { HeaderCheck } from './modern-headers.js';

/** The schema keyword that names a property's header (the part after `Mcp-Param-`). */
export const HEADER_KEYWORD = 'x-mcp-header';

const HEADER_NAME = /^[A-Za-z0-9-]+$/;

/** Argument name → header name (lower case, `mcp-param-<x>`) for every top-level property marked in the schema. */
export function paramHeaderNames(inputSchema: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const properties = isObject(inputSchema) && isObject(inputSchema.properties) ? inputSchema.properties : {};
  for (const [argument, property] of Object.entries(properties)) {
    const name = isObject(property) ? property[HEADER_KEYWORD] : undefined;
    if (typeof name === 'string' && HEADER_NAME.test(name)) out.set(argument, `mcp-param-${name.toLowerCase()}`);
  }
  return out;
}

/** The text a header carries for an argument: strings as they are, numbers and booleans printed; other values none. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** The `Mcp-Param-*` headers a client sends with a tools/call (encoded when not plain ASCII). */
export function paramHeadersFor(inputSchema: unknown, args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const given = isObject(args) ? args : {};
  for (const [argument, header] of paramHeaderNames(inputSchema)) {
    const text = headerText(given[argument]);
    if (text !== undefined) out[header] = encodeHeaderValue(text);
  }
  return out;
}

/**
 * Checks the `Mcp-Param-*` headers of a received tools/call against its arguments: each marked argument
 * the body has needs its header, with a value that decodes (strictly) to the same text; a header for a
 * marked argument the body lacks is a mismatch too. Headers for unmarked names are not looked at.
 */
export function checkParamHeaders(headers: HeaderSource, inputSchema: unknown, args: unknown): HeaderCheck {
  const given = isObject(args) ? args : {};
  for (const [argument, header] of paramHeaderNames(inputSchema)) {
    const raw = headers.get(header);
    const text = headerText(given[argument]);
    const present = raw !== null && raw !== undefined;
    if (!present && text === undefined) continue;
    if (!present) return fail(header, `${header} is required: the body carries the argument ${argument}`);
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) return fail(header, `${header}: ${decoded.reason}`);
    if (text === undefined) return fail(header, `${header} is sent but the body has no ${argument} argument`);
    if (decoded.value !== text) return fail(header, `${header} does not match the body's ${argument} argument`);
  }
  return { ok: true };
}

function fail(header: string, message: string): HeaderCheck {
  return { ok: false, error: headerMismatchError(header, message) };
}

/** The input schema of a tool definition, when it has one. */
export function inputSchemaOf(tool: unknown): JsonObject | undefined {
  return isObject(tool) && isObject(tool.inputSchema) ? tool.inputSchema : undefined;
}
