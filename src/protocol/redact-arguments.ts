/** @module A tool call's arguments as an operator may be shown them: secret-looking and schema-marked secret values "[redacted]", the whole bounded in size. */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import { REDACTED_VALUE, secretPropertyKind } from './secret-fields.js';

/** Property names whose values are taken for secrets whatever the schema says. */
const SECRET_NAME = /pass(word|phrase)?|secret|token|api[-_]?key|authori[sz]ation|credential|private[-_]?key|cookie|session[-_]?id/i;
/** The most characters of JSON shown; longer arguments are cut (and say so). */
export const MAX_SHOWN_ARGUMENTS = 4_096;
const MAX_DEPTH = 8;

function redactValue(value: unknown, schema: unknown, depth: number): unknown {
  if (Array.isArray(value)) {
    const items = isObject(schema) ? schema.items : undefined;
    return depth >= MAX_DEPTH ? '[…]' : value.map((item) => redactValue(item, items, depth + 1));
  }
  if (!isObject(value)) return value;
  if (depth >= MAX_DEPTH) return '[…]';
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => {
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      const secret = SECRET_NAME.test(name) || secretPropertyKind(property) !== undefined;
      return [name, secret ? REDACTED_VALUE : redactValue(inner, property, depth + 1)];
    }),
  );
}

/**
 * `args` with every value whose property the input schema marks `format: password` or `writeOnly`, or whose name
 * looks like a secret (password, token, apiKey, authorization, …), replaced by "[redacted]", at any depth. Arguments
 * whose JSON is longer than MAX_SHOWN_ARGUMENTS are replaced by `{ "[truncated]": <the first characters> }`.
 */
export function argumentsAtRest(args: JsonObject, inputSchema?: JsonObject): JsonObject {
  const redacted = redactValue(args, inputSchema, 0) as JsonObject;
  const text = JSON.stringify(redacted);
  return text.length <= MAX_SHOWN_ARGUMENTS ? redacted : { '[truncated]': `${text.slice(0, MAX_SHOWN_ARGUMENTS)}…` };
}
