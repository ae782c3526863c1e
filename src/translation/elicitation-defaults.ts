/**
 * @module Fills the defaults a downgraded host never saw into its accepted elicitation answer (SEP-1034).
 *
 * Pure: no I/O. A 2025-06-18 host is sent the upstream's form without `default` on anything but
 * booleans (mcp-revisions.md §3.3, §10.4). A 2025-11-25 host would have pre-filled those defaults, so
 * an upstream that declared one may rely on getting a value. When the older host accepts and leaves
 * such a property out, the upstream's default is put in its place. Only defaults the host was *not*
 * sent are filled (a boolean default it saw and left out stays left out), only on `accept`, and only
 * a default that is itself valid for its property (an upstream's bad default is not forced on anyone).
 * Never used for a host that received the upstream's schema as is.
 */

import { cloneJson, putKey } from '../protocol/json-clone.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { validateElicitAnswer } from './elicitation-answer.js';

/**
 * The properties whose `default` is in the upstream's schema but not in the schema the host was sent, with that default;
 * those named in `answered` (the host gave them a value) are left out.
 */
export function hiddenDefaults(upstreamSchema: unknown, sentSchema: unknown, answered: JsonObject = {}): JsonObject {
  const upstream = isObject(upstreamSchema) && isObject(upstreamSchema.properties) ? upstreamSchema.properties : {};
  let sent: JsonObject | undefined;
  const out: JsonObject = {};
  for (const [name, property] of Object.entries(upstream)) {
    if (Object.hasOwn(answered, name) || !isObject(property) || !Object.hasOwn(property, 'default')) continue;
    sent ??= isObject(sentSchema) && isObject(sentSchema.properties) ? sentSchema.properties : {};
    const seen = Object.hasOwn(sent, name) ? sent[name] : undefined;
    if (isObject(seen) && Object.hasOwn(seen, 'default')) continue;
    if (!validateElicitAnswer({ action: 'accept', content: { [name]: property.default } }, { type: 'object', properties: { [name]: property } }).ok) continue;
    putKey(out, name, property.default);
  }
  return out;
}

/**
 * `result` with every hidden default filled in where an `accept` answer omits the property. Returns
 * `result` itself when there is nothing to fill (any other action, no hidden defaults, nothing
 * omitted, or a `content` that is not an object, which the answer check refuses anyway); otherwise a
 * copy whose `content` gains the defaults after the host's own values. Never mutates its arguments.
 */
export function fillHiddenDefaults(result: JsonObject, upstreamSchema: unknown, sentSchema: unknown): JsonObject {
  if (result.action !== 'accept') return result;
  if (result.content !== undefined && !isObject(result.content)) return result;
  const given = result.content ?? {};
  const missing = Object.entries(hiddenDefaults(upstreamSchema, sentSchema, given));
  if (missing.length === 0) return result;
  const content: JsonObject = {};
  for (const [name, value] of Object.entries(given)) putKey(content, name, value);
  for (const [name, value] of missing) putKey(content, name, cloneJson(value));
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(result)) putKey(out, key, key === 'content' ? content : value);
  if (!Object.hasOwn(out, 'content')) putKey(out, 'content', content);
  return out;
}
