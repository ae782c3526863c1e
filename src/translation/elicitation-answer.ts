/**
 * @module Validates an elicitation answer (`ElicitResult`) against the `requestedSchema` it answers, through the schema's answer form: one compiled JSON Schema per property.
 *
 * Pure: no I/O. Semantics follow schema.ts, not schema.json: content numbers are `number`, so
 * `3.5` is valid for `type: "number"` (mcp-revisions.md §3.6). Every failure reason names the
 * field, e.g. `field "ticket": expected a string`, and never echoes the submitted value.
 *
 * Rules:
 * - `result` is an object whose `action` is "accept", "decline" or "cancel".
 * - `content` is held to {@link checkAnswerLimits} for every action; it is checked against the
 *   schema only on accept (decline/cancel may carry or omit it).
 * - With no `requestedSchema` (URL mode), an accept must not carry `content`.
 * - On accept, `content` may be omitted only if the schema has no required fields.
 * - Keys of `content` must be in `properties`; every `required` key must be present.
 * - Per field: `string` (enum / oneOf const membership, minLength/maxLength in code points,
 *   format email/uri/date/date-time), `number` (finite; minimum/maximum), `integer` (an
 *   integer; minimum/maximum), `boolean`, and `array` = multi-select `string[]` (items.enum /
 *   items.anyOf const membership, minItems/maxItems). `null` is never a valid value.
 * - Unknown `format` values are not checked (the spec defines only the four above).
 *
 * The envelope rules and which keys are allowed and required are written here (ajv drops a property named
 * `__proto__` from `properties` and `required`; such a name is data like any other here). The field rules
 * are the answer form: for each property, a JSON Schema of only what the rules above define, checked by the
 * shared {@link JsonSchemaValidator} (ajv, whose `format` checks are ajv-formats', see ajv-validator.ts).
 * Everything else an upstream writes (`pattern`, `title`, unknown formats, `x-…`) is never compiled, so no
 * regular expression or keyword of the upstream's reaches the engine. A count that is not a non-negative
 * integer or a bound that is not a number (checkRequestedSchema refuses both) is not checked.
 *
 * A form is compiled once per schema object and once per distinct form (so a schema and its downgraded copy,
 * or the same form asked again, share one); a schema must not be edited after it is first checked.
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { sharedSchemaValidator } from './ajv-validator.js';
import { checkAnswerLimits } from './elicitation-limits.js';
import type { JsonSchemaValidator, SchemaIssue, ValueCheck } from './schema-validator.js';

export type ElicitAnswerVerdict = { ok: true } | { ok: false; field?: string; reason: string };

const ACTIONS: readonly string[] = ['accept', 'decline', 'cancel'];

/** The four `format` values the spec defines; any other is an annotation. */
const FORMATS: ReadonlySet<string> = new Set(['email', 'uri', 'date', 'date-time']);

/** A property an answer can fill: the JSON Schema its value must satisfy (what the rules define of the property's), and its compiled check. */
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

/** What a form is compiled from: each property's answer schema (or why no value can answer it), and the `required` names. */
interface FormPlan {
  readonly fields: readonly (readonly [name: string, answer: JsonObject | string])[];
  readonly required: readonly string[];
}

/** `{enum}` of the allowed strings of `enum` or the `const`s of `listKey`, `{not: {}}` when a list allows no string, `{}` when there is none. */
function allowedValues(schema: JsonObject, listKey: 'oneOf' | 'anyOf'): JsonObject {
  const options = schema[listKey];
  let values: unknown[] | undefined;
  if (Array.isArray(schema.enum)) values = schema.enum;
  else if (Array.isArray(options)) {
    values = [];
    for (const option of options) if (isObject(option)) values.push(option.const);
  }
  if (values === undefined) return {};
  const strings = new Set<string>();
  for (const value of values) if (typeof value === 'string') strings.add(value);
  return strings.size > 0 ? { enum: [...strings] } : { not: {} };
}

/** The bounds each type carries over: counts (non-negative integers) for lengths and item counts, finite numbers for values. */
const BOUNDS: Readonly<Record<string, { readonly keys: readonly [string, string]; readonly counts: boolean }>> = {
  string: { keys: ['minLength', 'maxLength'], counts: true },
  number: { keys: ['minimum', 'maximum'], counts: false },
  integer: { keys: ['minimum', 'maximum'], counts: false },
  array: { keys: ['minItems', 'maxItems'], counts: true },
};

/** The answer schema of one property, or why no value can answer it. */
function answerProperty(schema: unknown): JsonObject | string {
  if (!isObject(schema)) return 'the requested schema for it is not an object';
  let out: JsonObject;
  switch (schema.type) {
    case 'string':
      out = schema.enum === undefined && schema.oneOf === undefined ? { type: 'string' } : { type: 'string', ...allowedValues(schema, 'oneOf') };
      if (typeof schema.format === 'string' && FORMATS.has(schema.format)) out.format = schema.format;
      break;
    case 'number':
    case 'integer':
    case 'boolean':
      out = { type: schema.type };
      break;
    case 'array': {
      const items = isObject(schema.items) && (schema.items.enum !== undefined || schema.items.anyOf !== undefined) ? { type: 'string', ...allowedValues(schema.items, 'anyOf') } : { type: 'string' };
      out = { type: 'array', items };
      break;
    }
    default:
      return `the requested schema has an unsupported type ${JSON.stringify(schema.type) ?? 'undefined'}`;
  }
  const bounds = BOUNDS[schema.type];
  if (bounds !== undefined) {
    for (const key of bounds.keys) {
      const value = schema[key];
      if (typeof value === 'number' && (bounds.counts ? Number.isInteger(value) && value >= 0 : Number.isFinite(value))) out[key] = value;
    }
  }
  return out;
}

function formPlan(requestedSchema: JsonObject & { properties: JsonObject }): FormPlan {
  const fields: [string, JsonObject | string][] = [];
  for (const [name, schema] of Object.entries(requestedSchema.properties)) fields.push([name, answerProperty(schema)]);
  const required: string[] = [];
  if (Array.isArray(requestedSchema.required)) for (const name of requestedSchema.required) if (typeof name === 'string') required.push(name);
  return { fields, required };
}

function compilePlan(validator: JsonSchemaValidator, plan: FormPlan): AnswerForm | string {
  const fields = new Map<string, AnswerField | string>();
  for (const [name, answer] of plan.fields) {
    if (typeof answer === 'string') {
      fields.set(name, answer);
      continue;
    }
    const compiled = validator.compile(answer);
    if (!compiled.ok) return `property ${JSON.stringify(name)}: ${compiled.reason}`;
    fields.set(name, { schema: answer, check: compiled.check });
  }
  return { fields, required: plan.required };
}

/** Compiles the answer checks of an object schema with `properties`, or gives the engine's reason why one cannot be compiled. */
export function compileAnswerForm(validator: JsonSchemaValidator, requestedSchema: JsonObject & { properties: JsonObject }): AnswerForm | string {
  return compilePlan(validator, formPlan(requestedSchema));
}

/** Compiled forms by requested-schema object, so every answer to one question compiles nothing. */
const forms = new WeakMap<object, AnswerForm | string>();

/** Compiled forms by the JSON text of their plan, least recently used first; past {@link FORM_CACHE_SIZE} the first goes. */
const formsByPlan = new Map<string, AnswerForm | string>();
const FORM_CACHE_SIZE = 256;

/** {@link compileAnswerForm} with the shared validator, once per schema object (which must not be edited afterwards) and once per distinct form. */
export function answerFormOf(requestedSchema: JsonObject & { properties: JsonObject }): AnswerForm | string {
  let form = forms.get(requestedSchema);
  if (form !== undefined) return form;
  const plan = formPlan(requestedSchema);
  const text = JSON.stringify(plan);
  form = formsByPlan.get(text);
  if (form === undefined) {
    form = compilePlan(sharedSchemaValidator(), plan);
    if (formsByPlan.size >= FORM_CACHE_SIZE) formsByPlan.delete(formsByPlan.keys().next().value as string);
  } else {
    formsByPlan.delete(text);
  }
  formsByPlan.set(text, form);
  forms.set(requestedSchema, form);
  return form;
}

/**
 * `copy` is checked with the compiled form of `original` from now on (once that is compiled): for a translation of
 * `original` that changes nothing an answer is checked by, whose form would compile to the same one.
 */
export function shareAnswerForm(copy: object, original: object): void {
  const form = forms.get(original);
  if (form !== undefined) forms.set(copy, form);
}

/** The form answers to `requestedSchema` are checked with, or undefined when it is not an object schema with properties. */
function formOf(requestedSchema: unknown): AnswerForm | string | undefined {
  const known = typeof requestedSchema === 'object' && requestedSchema !== null ? forms.get(requestedSchema) : undefined;
  if (known !== undefined) return known;
  if (!isObject(requestedSchema) || !isObject(requestedSchema.properties)) return undefined;
  return answerFormOf(requestedSchema as JsonObject & { properties: JsonObject });
}

/** Whether every answer gets the same verdict against both schemas: the same object, or two whose properties compile to one form. */
export function sameAnswerForm(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const form = formOf(a);
  return typeof form === 'object' && form === formOf(b);
}

/** Why a value does not answer a field, from the failing keyword (`items` says whether it is about one element of a multi-select). */
function keywordReason(keyword: string, answer: JsonObject, items: boolean): string {
  if (answer.type === 'array') {
    if (keyword === 'type') return 'expected an array of strings';
    if (items) return 'contains a value that is not one of the allowed values';
    return keyword === 'minItems' ? `expected at least ${String(answer.minItems)} items` : `expected at most ${String(answer.maxItems)} items`;
  }
  switch (keyword) {
    case 'type':
      return answer.type === 'integer' ? 'expected an integer' : `expected a ${String(answer.type)}`;
    case 'enum':
    case 'not':
      return 'not one of the allowed values';
    case 'minLength':
      return `expected at least ${String(answer.minLength)} characters`;
    case 'maxLength':
      return `expected at most ${String(answer.maxLength)} characters`;
    case 'format':
      return `expected a valid ${String(answer.format)}`;
    case 'minimum':
      return `expected a value of at least ${String(answer.minimum)}`;
    default:
      return `expected a value of at most ${String(answer.maximum)}`;
  }
}

/** The order in which one property's rules are reported: the value's kind first, then membership, then counts, then format. */
const KEYWORD_RANK: Readonly<Record<string, number>> = { type: 0, enum: 1, not: 1, minLength: 2, minItems: 2, minimum: 2, maxLength: 3, maxItems: 3, maximum: 3, format: 4 };

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

function fail(field: string, reason: string): ElicitAnswerVerdict {
  return { ok: false, field, reason: `field ${JSON.stringify(field)}: ${reason}` };
}

/**
 * Validates an elicitation result against the schema it answers; never throws. `limitsChecked`: the caller has
 * already held `result` to {@link checkAnswerLimits} and found it within them (the verdict is the same; the
 * content is not measured twice).
 */
export function validateElicitAnswer(result: unknown, requestedSchema: unknown, options: { limitsChecked?: boolean } = {}): ElicitAnswerVerdict {
  if (!isObject(result)) return { ok: false, reason: 'the elicitation result must be an object' };
  if (typeof result.action !== 'string' || !ACTIONS.includes(result.action)) {
    return fail('action', 'expected "accept", "decline" or "cancel"');
  }
  // Limits hold for every action, so an oversized decline/cancel cannot reach the upstream either.
  const limit = options.limitsChecked === true ? undefined : checkAnswerLimits(result);
  if (limit !== undefined) return { ok: false, field: 'content', reason: limit };
  if (result.action !== 'accept') return { ok: true };

  const { content } = result;
  if (requestedSchema === undefined) {
    return content === undefined ? { ok: true } : fail('content', 'not expected without a requestedSchema (URL mode)');
  }
  const form = formOf(requestedSchema);
  if (form === undefined) return { ok: false, reason: 'the requestedSchema is not an object schema with properties' };
  if (typeof form === 'string') return { ok: false, reason: `the requestedSchema cannot be checked: ${form}` };

  if (content === undefined) {
    const first = form.required[0];
    return first === undefined ? { ok: true } : fail(first, 'required, but the answer has no content');
  }
  if (!isObject(content)) return fail('content', 'expected an object');
  const problem = contentProblem(form, content);
  return problem === undefined ? { ok: true } : fail(problem.field, problem.reason);
}
