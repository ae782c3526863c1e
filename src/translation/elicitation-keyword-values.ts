/**
 * @module The values the keywords of a primitive elicitation property may have, as one JSON Schema per property type, and the reason for each failure.
 *
 * Pure: no I/O. elicitation-schema.ts has already settled that the property is an object of one of
 * the five types and uses only keywords its type may have; these schemas check what those keywords
 * hold (mcp-revisions.md §3.3): counts are non-negative integers, bounds numbers, `format` a string,
 * `default` a value of the property's type, `enum` a non-empty list of strings, `enumNames` only
 * beside `enum`, `oneOf` and a multi-select's `items.anyOf` non-empty lists of `{const, title}`
 * strings, `items` a flat `{type: "string", enum}` or `{anyOf}`. Keywords they do not name
 * (`title`, `description`, `pattern`, `x-…`) are annotations and pass. Each failure is reported by
 * the first rule of its type's list that breaks, so the reason is the same whatever order the
 * engine finds problems in. That `enumNames` has one entry per `enum` value is checked by hand
 * (JSON Schema cannot compare two lengths).
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { sharedSchemaValidator } from './ajv-validator.js';
import type { ValueCheck } from './schema-validator.js';
import { pointerSegments } from './schema-validator.js';

/** Keywords that reference, compose or nest schemas (all but `anyOf` are refused inside a multi-select's `items`). */
export const STRUCTURAL = [
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
  if (!compiled.ok) throw new Error(`elicitation-keyword-values: the ${kindName} schema does not compile: ${compiled.reason}`);
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
