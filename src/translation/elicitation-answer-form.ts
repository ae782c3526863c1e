/**
 * @module A requested form schema turned into one compiled JSON Schema per property, and an accepted answer's `content` checked against them with the reason we report.
 *
 * Pure: no I/O. Only what the answer rules define is carried over (elicitation-answer.ts lists
 * them): `type`; for strings `enum` or the `oneOf` consts, `minLength`/`maxLength` (code points,
 * ajv's default) and the four spec formats; `minimum`/`maximum`; for multi-selects `items` of
 * strings with `enum` or the `anyOf` consts, `minItems`/`maxItems`. Everything else an upstream
 * writes (`pattern`, `title`, unknown formats, `x-…`) is never compiled, so no regular expression
 * or keyword of the upstream's reaches the engine. A count that is not a non-negative integer or a
 * bound that is not a number (checkRequestedSchema refuses both) is not checked.
 *
 * Which keys are allowed and required is checked here, not by the engine: ajv drops a property
 * named `__proto__` from `properties` and `required`, and such a name is data like any other here.
 * Each property's schema is compiled alone, so equal properties of different forms share one.
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { sharedSchemaValidator } from './ajv-validator.js';
import type { JsonSchemaValidator, SchemaIssue, ValueCheck } from './schema-validator.js';

/** The four `format` values the spec defines; any other is an annotation. */
const FORMATS: ReadonlySet<string> = new Set(['email', 'uri', 'date', 'date-time']);

/** A property an answer can fill: its original schema and the compiled check of its value. */
interface AnswerField {
  readonly schema: JsonObject;
  readonly check: ValueCheck;
}

/** A compiled form: each property's check (or why no value can answer it), and the `required` names in order. */
export interface AnswerForm {
  readonly fields: ReadonlyMap<string, AnswerField | string>;
  readonly required: readonly string[];
}

/** A problem to report: the field it is about and the reason after `field "…": `. */
export interface FieldProblem {
  readonly field: string;
  readonly reason: string;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** `{enum}` of the allowed strings of `enum` or the `const`s of `listKey`, `{not: {}}` when a list allows no string, `{}` when there is none. */
function allowedValues(schema: JsonObject, listKey: 'oneOf' | 'anyOf'): JsonObject {
  let values: unknown[] | undefined;
  if (Array.isArray(schema.enum)) values = schema.enum;
  else if (Array.isArray(schema[listKey])) values = schema[listKey].filter(isObject).map((option) => option.const);
  if (values === undefined) return {};
  const strings = [...new Set(values.filter((value): value is string => typeof value === 'string'))];
  return strings.length > 0 ? { enum: strings } : { not: {} };
}

function withBounds(target: JsonObject, schema: JsonObject, keys: readonly string[], read: (value: unknown) => number | undefined): JsonObject {
  for (const key of keys) {
    const value = read(schema[key]);
    if (value !== undefined) target[key] = value;
  }
  return target;
}

/** The answer schema of one property, or undefined when no value can answer it. */
function answerProperty(schema: JsonObject): JsonObject | undefined {
  switch (schema.type) {
    case 'string': {
      const out = { type: 'string', ...allowedValues(schema, 'oneOf') };
      if (typeof schema.format === 'string' && FORMATS.has(schema.format)) Object.assign(out, { format: schema.format });
      return withBounds(out, schema, ['minLength', 'maxLength'], count);
    }
    case 'number':
    case 'integer':
      return withBounds({ type: schema.type }, schema, ['minimum', 'maximum'], finite);
    case 'boolean':
      return { type: 'boolean' };
    case 'array': {
      const items = { type: 'string', ...allowedValues(isObject(schema.items) ? schema.items : {}, 'anyOf') };
      return withBounds({ type: 'array', items }, schema, ['minItems', 'maxItems'], count);
    }
    default:
      return undefined;
  }
}

/** Compiles the answer checks of an object schema with `properties`, or gives the engine's reason why one cannot be compiled. */
export function compileAnswerForm(validator: JsonSchemaValidator, requestedSchema: JsonObject & { properties: JsonObject }): AnswerForm | string {
  const fields = new Map<string, AnswerField | string>();
  for (const [name, schema] of Object.entries(requestedSchema.properties)) {
    const answer = isObject(schema) ? answerProperty(schema) : undefined;
    if (!isObject(schema) || answer === undefined) {
      fields.set(name, unanswerable(schema));
      continue;
    }
    const compiled = validator.compile(answer);
    if (!compiled.ok) return `property ${JSON.stringify(name)}: ${compiled.reason}`;
    fields.set(name, { schema, check: compiled.check });
  }
  const required = Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((k): k is string => typeof k === 'string') : [];
  return { fields, required };
}

/** Compiled forms by requested-schema object, so every answer to one question compiles nothing. */
const forms = new WeakMap<object, AnswerForm | string>();

/** {@link compileAnswerForm} with the shared validator, once per schema object (which must not be edited afterwards). */
export function answerFormOf(requestedSchema: JsonObject & { properties: JsonObject }): AnswerForm | string {
  let form = forms.get(requestedSchema);
  if (form === undefined) {
    form = compileAnswerForm(sharedSchemaValidator(), requestedSchema);
    forms.set(requestedSchema, form);
  }
  return form;
}

/** Why a value does not answer a property, from the failing keyword (`items` says whether it is about one element of a multi-select). */
function keywordReason(keyword: string, property: JsonObject, items: boolean): string {
  if (property.type === 'array') {
    if (keyword === 'type') return 'expected an array of strings';
    if (items) return 'contains a value that is not one of the allowed values';
    return keyword === 'minItems' ? `expected at least ${String(property.minItems)} items` : `expected at most ${String(property.maxItems)} items`;
  }
  switch (keyword) {
    case 'type':
      return property.type === 'integer' ? 'expected an integer' : `expected a ${String(property.type)}`;
    case 'enum':
    case 'not':
      return 'not one of the allowed values';
    case 'minLength':
      return `expected at least ${String(property.minLength)} characters`;
    case 'maxLength':
      return `expected at most ${String(property.maxLength)} characters`;
    case 'format':
      return `expected a valid ${String(property.format)}`;
    case 'minimum':
      return `expected a value of at least ${String(property.minimum)}`;
    default:
      return `expected a value of at most ${String(property.maximum)}`;
  }
}

/** The order in which one property's rules are reported: the value's kind first, then membership, then counts, then format. */
const KEYWORD_RANK: Readonly<Record<string, number>> = { type: 0, enum: 1, not: 1, minLength: 2, minItems: 2, minimum: 2, maxLength: 3, maxItems: 3, maximum: 3, format: 4 };

function unanswerable(property: unknown): string {
  if (!isObject(property)) return 'the requested schema for it is not an object';
  return `the requested schema has an unsupported type ${JSON.stringify(property.type) ?? 'undefined'}`;
}

/** The reason for the first rule of `field` that `issues` (of its value) break. */
function fieldReason(field: AnswerField, issues: readonly SchemaIssue[]): string {
  let first: SchemaIssue | undefined;
  for (const issue of issues) {
    if (first === undefined || (KEYWORD_RANK[issue.keyword] ?? 9) < (KEYWORD_RANK[first.keyword] ?? 9)) first = issue;
  }
  return keywordReason(first?.keyword ?? 'type', field.schema, first !== undefined && first.instancePath !== '');
}

/**
 * The first problem of an accepted answer's `content`, or undefined: a key that is not a property
 * (in content order), then a missing required key (in `required` order), then the first field in
 * content order with its first broken rule.
 */
export function contentProblem(form: AnswerForm, content: JsonObject): FieldProblem | undefined {
  const keys = Object.keys(content);
  for (const key of keys) {
    if (!form.fields.has(key)) return { field: key, reason: 'not in the requested schema' };
  }
  for (const key of form.required) {
    if (!Object.hasOwn(content, key)) return { field: key, reason: 'required' };
  }
  for (const key of keys) {
    const field = form.fields.get(key);
    if (field === undefined) continue;
    if (typeof field === 'string') return { field: key, reason: field };
    const checked = field.check(content[key]);
    if (!checked.ok) return { field: key, reason: fieldReason(field, checked.issues) };
  }
  return undefined;
}
