/**
 * @module Checks that a form elicitation's `requestedSchema` is the flat shape the revisions allow, before it reaches any host.
 *
 * Pure: no I/O. mcp-revisions.md §3.2/§3.3: `requestedSchema` is `{type: "object", properties, required?}`
 * and every property is a primitive schema: a string (plain, `enum` with optional `enumNames`, or
 * titled `oneOf: [{const, title}]`), a number or integer, a boolean, or (2025-11-25) a multi-select
 * array whose `items` is `{type: "string", enum}` or `{anyOf: [{const, title}]}`. The check accepts
 * the 2025-11-25 grammar for every host; whether a given host can *receive* a shape (a multi-select
 * for a 2025-06-18 host) is the downgrade's decision, not a validity question.
 *
 * Annotations the spec does not list (`title`, `description`, `pattern`, `x-…`) are left alone: they
 * cannot nest a form. What is refused is anything that makes the form not flat or not primitive:
 * a nested object, an array that is not a multi-select, references and composition (`$ref`,
 * `allOf`, `not`, …), and values of the wrong kind in the keywords the spec does define.
 *
 * The shape rules (flat, which keywords each type may use) are written here: they are MCP's, not
 * JSON Schema's. What each keyword holds is checked by JSON Schemas through the validator port
 * (elicitation-keyword-values.ts), and last the form answers will be checked with must compile
 * (elicitation-answer.ts); a schema that fails either is refused, never thrown on.
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { answerFormOf } from './elicitation-answer.js';
import { keywordValueProblem, STRUCTURAL } from './elicitation-keyword-values.js';

/** What is wrong and where: `path` is e.g. `requestedSchema.properties.address`. */
export interface SchemaProblem {
  path: string;
  reason: string;
}

/** Structural keywords each property type may still use, in the one form the spec defines for it. */
const ALLOWED_STRUCTURAL: Record<string, readonly string[]> = {
  string: ['oneOf'],
  number: [],
  integer: [],
  boolean: [],
  array: ['items'],
};

/** Keywords that only make sense on one type; elsewhere they would be silently ignored by the answer check. */
const TYPE_ONLY: Record<string, string> = { enum: 'string', enumNames: 'string', minLength: 'string', maxLength: 'string', format: 'string', minItems: 'array', maxItems: 'array' };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `requestedSchema.properties.name`, or `requestedSchema.properties["first name"]` when the name is not an identifier. */
export function propertyPath(name: string): string {
  return IDENTIFIER.test(name) ? `requestedSchema.properties.${name}` : `requestedSchema.properties[${JSON.stringify(name)}]`;
}

/**
 * The first problem with the `requestedSchema` of form-mode `elicitation/create` params, or undefined
 * when it is a valid flat form. URL mode (and a mode this revision set does not know) is not checked here.
 */
export function checkRequestedSchema(params: JsonObject): SchemaProblem | undefined {
  if (params.mode !== undefined && params.mode !== 'form') return undefined;
  const schema = params.requestedSchema;
  if (schema === undefined) return { path: 'requestedSchema', reason: 'is missing (a form elicitation needs one)' };
  if (!isObject(schema)) return { path: 'requestedSchema', reason: 'must be an object' };
  if (schema.type !== 'object') return { path: 'requestedSchema.type', reason: `must be "object", not ${describe(schema.type)}` };
  for (const keyword of STRUCTURAL) {
    if (keyword === 'properties' || !(keyword in schema)) continue;
    if (keyword === 'additionalProperties' && typeof schema.additionalProperties === 'boolean') continue;
    return { path: `requestedSchema.${keyword}`, reason: 'is not allowed: a requested schema is one flat object (no references, composition or nesting)' };
  }
  const properties = schema.properties;
  if (properties === undefined) return { path: 'requestedSchema.properties', reason: 'is missing' };
  if (!isObject(properties)) return { path: 'requestedSchema.properties', reason: 'must be an object mapping names to property schemas' };
  const required = schema.required;
  if (required !== undefined) {
    if (!Array.isArray(required)) return { path: 'requestedSchema.required', reason: 'must be an array of property names' };
    for (const name of required) {
      if (typeof name !== 'string') return { path: 'requestedSchema.required', reason: 'must be an array of property names' };
    }
    for (const name of required as string[]) {
      if (!Object.hasOwn(properties, name)) return { path: 'requestedSchema.required', reason: `names ${JSON.stringify(name)}, which is not a property` };
    }
  }
  for (const [name, property] of Object.entries(properties)) {
    const reason = propertyProblem(property);
    if (reason) return { path: propertyPath(name), reason };
  }
  // The form an answer is checked with must compile too; one that cannot is refused like any other bad schema.
  const form = answerFormOf(schema as JsonObject & { properties: JsonObject });
  if (typeof form === 'string') return { path: 'requestedSchema', reason: `cannot be used to check answers (${form})` };
  return undefined;
}

/** Why one property schema is not a primitive elicitation schema, or undefined. */
function propertyProblem(property: unknown): string | undefined {
  if (!isObject(property)) return 'must be a schema object';
  const type = property.type;
  if (type === 'object' || (type === undefined && isObject(property.properties))) return 'is a nested object; elicitation forms are flat (primitive properties only)';
  if ('$ref' in property) return 'uses $ref; elicitation schemas cannot reference other schemas';
  if (type === undefined) return 'has no type';
  if (typeof type !== 'string') return `must have one type name, not ${describe(type)}`;
  const allowed = ALLOWED_STRUCTURAL[type];
  if (!allowed) return `has type ${JSON.stringify(type)}; a property must be a string, number, integer, boolean or multi-select array`;
  for (const keyword of STRUCTURAL) {
    if (keyword in property && !allowed.includes(keyword)) return `uses ${keyword}, which a ${type} property of an elicitation form cannot have`;
  }
  for (const [keyword, owner] of Object.entries(TYPE_ONLY)) {
    if (keyword in property && owner !== type) return `uses ${keyword}, which only ${owner} properties can have`;
  }
  return keywordValueProblem(type, property);
}

function describe(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}
