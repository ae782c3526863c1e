/** @module Renders templated JSON values: a lone `{{ … }}` gives its value as is, any other string is interpolated, objects and arrays member by member. */

import type { JsonObject } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { putKey } from '../../protocol/json-clone.js';
import type { TemplatePart, TemplateScope } from './ast.js';
import { TEMPLATE_LIMITS, TemplateError } from './ast.js';
import { evaluate, jsonText } from './evaluate.js';
import { parseTemplateString } from './parse.js';

/**
 * Renders a templated JSON value. Strings: one that is exactly one `{{ … }}` gives that expression's
 * value as is (a number stays a number, an object an object); any other string is interpolated (objects
 * and arrays as JSON text, null and undefined as nothing). Objects and arrays are rendered member by
 * member; an object member that renders `undefined` is left out, an array element becomes null. Other
 * values are returned as they are. A missing path is `undefined`, never an error. Throws TemplateError
 * for a string that does not parse or a value nested deeper than TEMPLATE_LIMITS.depth.
 */
export function render(value: unknown, scope: TemplateScope): unknown {
  return renderAt(value, scope, 0);
}

/** Renders a templated string and always gives a string (the interpolation rules, even for a lone `{{ … }}`). */
export function renderText(text: string, scope: TemplateScope): string {
  return interpolate(parseOrThrow(text), scope);
}

function renderAt(value: unknown, scope: TemplateScope, depth: number): unknown {
  if (depth > TEMPLATE_LIMITS.depth) throw new TemplateError(`a templated value is nested deeper than ${TEMPLATE_LIMITS.depth} levels`);
  if (typeof value === 'string') {
    const parts = parseOrThrow(value);
    const only = parts[0];
    if (parts.length === 1 && only?.kind === 'expression') return copy(evaluate(only.expression, scope));
    return interpolate(parts, scope);
  }
  if (Array.isArray(value)) return value.map((item) => renderAt(item, scope, depth + 1) ?? null);
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) {
      const rendered = renderAt(child, scope, depth + 1);
      if (rendered !== undefined) putKey(out, key, rendered);
    }
    return out;
  }
  return value;
}

function parseOrThrow(text: string): TemplatePart[] {
  const parsed = parseTemplateString(text);
  if (!parsed.ok) throw new TemplateError(parsed.reason);
  return parsed.parts;
}

function interpolate(parts: TemplatePart[], scope: TemplateScope): string {
  let out = '';
  for (const part of parts) out += part.kind === 'text' ? part.text : toText(evaluate(part.expression, scope));
  return out;
}

/** How a value reads inside a string: strings as they are, null/undefined as nothing, objects and arrays as JSON. */
export function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return jsonText(value);
}

/** A fresh copy of a looked-up value, so a rendered result never aliases the scope. */
function copy(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > TEMPLATE_LIMITS.depth) throw new TemplateError(`a value is nested deeper than ${TEMPLATE_LIMITS.depth} levels`);
  if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) putKey(out, key, copy(child, depth + 1));
  return out;
}
