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
 * JSON Schema's. What each keyword holds is checked by one JSON Schema per property type through the
 * validator port (the second half of this file), and last the form answers will be checked with must
 * compile (elicitation-answer.ts); a schema that fails either is refused, never thrown on.
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { sharedSchemaValidator } from './ajv-validator.js';
import { answerFormOf } from './elicitation-answer.js';
import type { ValueCheck } from './schema-validator.js';
import { pointerSegments } from './schema-validator.js';

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

/*
 * What the keywords of a primitive property hold, as one JSON Schema per property type, and the reason for each failure.
 * propertyProblem has already settled that the property is an object of one of the five types and uses only keywords
 * its type may have; these schemas check what those keywords hold (mcp-revisions.md §3.3): counts are non-negative
 * integers, bounds numbers, `format` a string, `default` a value of the property's type, `enum` a non-empty list of
 * strings, `enumNames` only beside `enum`, `oneOf` and a multi-select's `items.anyOf` non-empty lists of `{const, title}`
 * strings, `items` a flat `{type: "string", enum}` or `{anyOf}`. Keywords they do not name (`title`, `description`,
 * `pattern`, `x-…`) are annotations and pass. Each failure is reported by the first rule of its type's list that breaks,
 * so the reason is the same whatever order the engine finds problems in. That `enumNames` has one entry per `enum` value
 * is checked by hand (JSON Schema cannot compare two lengths).
 */

/** Keywords that reference, compose or nest schemas (all but `anyOf` are refused inside a multi-select's `items`). */
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

const COUNT = { type: 'integer', minimum: 0 };
const NUMBER = { type: 'number' };
const STRING = { type: 'string' };
const STRINGS = { type: 'array', items: STRING };
const STRING_LIST = { type: 'array', minItems: 1, items: STRING };
const TITLED_OPTIONS = {
  type: 'array',
  minItems: 1,
  items: { type: 'object', required: ['const', 'title'], properties: { const: STRING, title: STRING } },
};
const MULTI_SELECT_ITEMS = {
  type: 'object',
  propertyNames: { not: { enum: STRUCTURAL.filter((keyword) => keyword !== 'anyOf') } },
  anyOf: [
    { type: 'object', required: ['type', 'enum'], properties: { type: { const: 'string' }, enum: STRING_LIST }, not: { type: 'object', required: ['anyOf'] } },
    { type: 'object', required: ['anyOf'], properties: { type: { const: 'string' }, anyOf: TITLED_OPTIONS }, not: { type: 'object', required: ['enum'] } },
  ],
};

/**
 * One rule of a property type: `key` is the keyword whose value is wrong (the first segment of the
 * issue's path), or `#` and the engine keyword for a rule about the property as a whole.
 */
type Rule = readonly [key: string, reason: string];

interface Kind {
  readonly schema: JsonObject;
  readonly rules: readonly Rule[];
}

const MULTI_SELECT = 'is an array that is not a multi-select (items must be {type: "string", enum: [...]} or {anyOf: [{const, title}, ...]})';
const ENUM_NAMES = 'has enumNames that are not one string per enum value';

const KINDS: Readonly<Record<string, Kind>> = {
  string: {
    schema: {
      type: 'object',
      properties: { minLength: COUNT, maxLength: COUNT, format: STRING, default: STRING, enum: STRING_LIST, enumNames: STRINGS, oneOf: TITLED_OPTIONS },
      not: { type: 'object', required: ['enum', 'oneOf'] },
      dependencies: { enumNames: ['enum'] },
    },
    rules: [
      ['minLength', 'has a minLength that is not a non-negative integer'],
      ['maxLength', 'has a maxLength that is not a non-negative integer'],
      ['format', 'has a format that is not a string'],
      ['default', 'has a default that is not a string'],
      ['#not', 'has both enum and oneOf'],
      ['enum', 'has an enum that is not a non-empty array of strings'],
      ['#dependencies', 'has enumNames without enum'],
      ['enumNames', ENUM_NAMES],
      ['oneOf', 'has a oneOf that is not a non-empty array of {const: string, title: string}'],
    ],
  },
  number: {
    schema: { type: 'object', properties: { minimum: NUMBER, maximum: NUMBER, default: NUMBER } },
    rules: [
      ['minimum', 'has a minimum that is not a number'],
      ['maximum', 'has a maximum that is not a number'],
      ['default', 'has a default that is not a number'],
    ],
  },
  boolean: {
    schema: { type: 'object', properties: { default: { type: 'boolean' } } },
    rules: [['default', 'has a default that is not a boolean']],
  },
  array: {
    schema: { type: 'object', required: ['items'], properties: { items: MULTI_SELECT_ITEMS, minItems: COUNT, maxItems: COUNT, default: STRINGS } },
    rules: [
      ['#required', MULTI_SELECT],
      ['items', MULTI_SELECT],
      ['minItems', 'has a minItems that is not a non-negative integer'],
      ['maxItems', 'has a maxItems that is not a non-negative integer'],
      ['default', 'has a default that is not an array of strings'],
    ],
  },
};

const checks = new Map<string, ValueCheck>();

function compileKind(kindName: string, kind: Kind): ValueCheck {
  const compiled = sharedSchemaValidator().compile(kind.schema);
  // The schemas above are constants: one that does not compile is a bug here, not a property's fault.
  if (!compiled.ok) throw new Error(`elicitation-schema: the ${kindName} keyword schema does not compile: ${compiled.reason}`);
  checks.set(kindName, compiled.check);
  return compiled.check;
}

/** Where the enumNames rule sits in the string rules: the length rule below ranks with it. */
const ENUM_NAMES_RANK = KINDS.string?.rules.findIndex(([, reason]) => reason === ENUM_NAMES) ?? -1;

/** Why the keywords of a `type` property (string, number, integer, boolean or array) hold values they may not, or undefined. */
export function keywordValueProblem(type: string, property: JsonObject): string | undefined {
  const kindName = type === 'integer' ? 'number' : type;
  const kind = KINDS[kindName];
  if (kind === undefined) return undefined;
  const checked = (checks.get(kindName) ?? compileKind(kindName, kind))(property);
  let first = kind.rules.length;
  if (!checked.ok) {
    for (const issue of checked.issues) {
      const key = pointerSegments(issue.instancePath)[0] ?? `#${issue.keyword}`;
      for (let index = 0; index < first; index += 1) {
        if (kind.rules[index]?.[0] === key) first = index;
      }
    }
  }
  // The length rule sits with the other enumNames rule; it applies once enum and enumNames are well-formed lists.
  if (kindName === 'string' && first > ENUM_NAMES_RANK && Array.isArray(property.enumNames) && Array.isArray(property.enum) && property.enumNames.length !== property.enum.length) {
    return ENUM_NAMES;
  }
  return kind.rules[first]?.[1];
}
