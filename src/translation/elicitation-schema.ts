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
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';

/** What is wrong and where: `path` is e.g. `requestedSchema.properties.address`. */
export interface SchemaProblem {
  path: string;
  reason: string;
}

/** Keywords that reference, compose or nest schemas: never part of a flat elicitation form. */
const STRUCTURAL = [
  '$ref',
  '$dynamicRef',
  '$defs',
  'definitions',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'dependentSchemas',
  'items',
  'prefixItems',
  'contains',
  'unevaluatedItems',
] as const;

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
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required) || !schema.required.every((name) => typeof name === 'string')) {
      return { path: 'requestedSchema.required', reason: 'must be an array of property names' };
    }
    const unknown = schema.required.find((name) => !Object.hasOwn(properties, name));
    if (unknown !== undefined) return { path: 'requestedSchema.required', reason: `names ${JSON.stringify(unknown)}, which is not a property` };
  }
  for (const [name, property] of Object.entries(properties)) {
    const reason = propertyProblem(property);
    if (reason) return { path: propertyPath(name), reason };
  }
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
  switch (type) {
    case 'string':
      return stringProblem(property);
    case 'number':
    case 'integer':
      return (
        numberKeyword(property, 'minimum') ??
        numberKeyword(property, 'maximum') ??
        (property.default !== undefined && (typeof property.default !== 'number' || !Number.isFinite(property.default)) ? 'has a default that is not a number' : undefined)
      );
    case 'boolean':
      return property.default !== undefined && typeof property.default !== 'boolean' ? 'has a default that is not a boolean' : undefined;
    default:
      return multiSelectProblem(property);
  }
}

function stringProblem(property: JsonObject): string | undefined {
  const lengths = countKeyword(property, 'minLength') ?? countKeyword(property, 'maxLength');
  if (lengths) return lengths;
  if (property.format !== undefined && typeof property.format !== 'string') return 'has a format that is not a string';
  if (property.default !== undefined && typeof property.default !== 'string') return 'has a default that is not a string';
  if ('enum' in property && 'oneOf' in property) return 'has both enum and oneOf';
  if ('enum' in property && !isStringList(property.enum)) return 'has an enum that is not a non-empty array of strings';
  if ('enumNames' in property) {
    if (!('enum' in property)) return 'has enumNames without enum';
    if (!isStringList(property.enumNames) || property.enumNames.length !== (property.enum as unknown[]).length) {
      return 'has enumNames that are not one string per enum value';
    }
  }
  if ('oneOf' in property && !isTitledOptions(property.oneOf)) return 'has a oneOf that is not a non-empty array of {const: string, title: string}';
  return undefined;
}

function multiSelectProblem(property: JsonObject): string | undefined {
  const items = property.items;
  const flat = isObject(items) && STRUCTURAL.every((keyword) => keyword === 'anyOf' || !(keyword in items));
  const untitled = flat && items.type === 'string' && isStringList(items.enum) && !('anyOf' in items);
  const titled = flat && isTitledOptions(items.anyOf) && (items.type === undefined || items.type === 'string') && !('enum' in items);
  if (!untitled && !titled) {
    return 'is an array that is not a multi-select (items must be {type: "string", enum: [...]} or {anyOf: [{const, title}, ...]})';
  }
  const counts = countKeyword(property, 'minItems') ?? countKeyword(property, 'maxItems');
  if (counts) return counts;
  if (property.default !== undefined && !(Array.isArray(property.default) && property.default.every((value) => typeof value === 'string'))) {
    return 'has a default that is not an array of strings';
  }
  return undefined;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string');
}

function isTitledOptions(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.every((option) => isObject(option) && typeof option.const === 'string' && typeof option.title === 'string');
}

function numberKeyword(property: JsonObject, key: string): string | undefined {
  const value = property[key];
  return value === undefined || (typeof value === 'number' && Number.isFinite(value)) ? undefined : `has a ${key} that is not a number`;
}

function countKeyword(property: JsonObject, key: string): string | undefined {
  const value = property[key];
  return value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0) ? undefined : `has a ${key} that is not a non-negative integer`;
}

function describe(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}
