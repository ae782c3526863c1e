/** @module Which elicitation answers are secrets (`format: password` or `writeOnly` fields, any URL-mode content) and their form at rest: "[redacted]". */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';

/** What is kept (stored, audited, served) instead of a secret value. */
export const REDACTED_VALUE = '[redacted]';

/** Why a requested-schema property holds a secret, or undefined when it does not (or is not a schema object). */
export function secretPropertyKind(property: unknown): 'format password' | 'writeOnly' | undefined {
  if (typeof property !== 'object' || property === null) return undefined;
  const { format, writeOnly } = property as JsonObject;
  if (format === 'password') return 'format password';
  return writeOnly === true ? 'writeOnly' : undefined;
}

/**
 * The content of an answer to `elicitation/create` with `params` as it may be kept: every field the requested
 * schema marks `format: password` or `writeOnly` replaced by "[redacted]", and for a URL-mode elicitation every
 * field (the page, not the gateway, is where secrets go; whatever a host sends along is not kept).
 */
export function contentAtRest(params: JsonObject, content: JsonObject): JsonObject {
  const schema = isObject(params.requestedSchema) ? params.requestedSchema : undefined;
  const properties = schema && isObject(schema.properties) ? schema.properties : {};
  const urlMode = params.mode === 'url';
  const kept: [string, unknown][] = [];
  for (const [name, value] of Object.entries(content)) {
    const secret = urlMode || secretPropertyKind(Object.hasOwn(properties, name) ? properties[name] : undefined) !== undefined;
    kept.push([name, secret ? REDACTED_VALUE : value]);
  }
  return Object.fromEntries(kept);
}
