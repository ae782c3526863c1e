/**
 * @module Validates an elicitation answer (`ElicitResult`) against the `requestedSchema` it answers.
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
 * Format checks (deliberately simple):
 * - email: `^[^\s@]+@[^\s@]+\.[^\s@]+$` (one @, non-empty parts, a dot inside the domain).
 * - uri: `^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$` (a scheme, no whitespace).
 * - date: `YYYY-MM-DD` that is a real calendar date (leap years included).
 * - date-time: RFC 3339 `date "T" HH:MM:SS[.frac] (Z | ±HH:MM)`, offset required; T/Z may be
 *   lower case; seconds may be 60 (leap second).
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { checkAnswerLimits } from './elicitation-limits.js';

export type ElicitAnswerVerdict = { ok: true } | { ok: false; field?: string; reason: string };

const ACTIONS: readonly string[] = ['accept', 'decline', 'cancel'];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** `YYYY-MM-DD` naming a real calendar date. */
export function isValidDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** RFC 3339 date-time with a mandatory offset (`Z` or `±HH:MM`). */
export function isValidDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m || !isValidDate(m[1] ?? '')) return false;
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (m[5] !== undefined && (Number(m[5]) > 23 || Number(m[6]) > 59)) return false;
  return true;
}

const FORMATS: Record<string, (text: string) => boolean> = {
  email: (text) => EMAIL.test(text),
  uri: (text) => URI.test(text),
  date: isValidDate,
  'date-time': isValidDateTime,
};

function fail(field: string, reason: string): ElicitAnswerVerdict {
  return { ok: false, field, reason: `field ${JSON.stringify(field)}: ${reason}` };
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The allowed values of a single-select string (`enum` or `oneOf[].const`), if it declares any. */
function allowedStrings(schema: JsonObject, enumKey: 'enum', constListKey: 'oneOf' | 'anyOf'): unknown[] | undefined {
  if (Array.isArray(schema[enumKey])) return schema[enumKey];
  const list = schema[constListKey];
  if (Array.isArray(list)) return list.filter(isObject).map((option) => option.const);
  return undefined;
}

function checkCount(field: string, count: number, min: unknown, max: unknown, what: string): ElicitAnswerVerdict | undefined {
  const lo = numberOrUndefined(min);
  const hi = numberOrUndefined(max);
  if (lo !== undefined && count < lo) return fail(field, `expected at least ${lo} ${what}`);
  if (hi !== undefined && count > hi) return fail(field, `expected at most ${hi} ${what}`);
  return undefined;
}

function checkString(field: string, value: unknown, schema: JsonObject): ElicitAnswerVerdict | undefined {
  if (typeof value !== 'string') return fail(field, 'expected a string');
  const allowed = allowedStrings(schema, 'enum', 'oneOf');
  if (allowed !== undefined && !allowed.includes(value)) return fail(field, 'not one of the allowed values');
  const lengthError = checkCount(field, [...value].length, schema.minLength, schema.maxLength, 'characters');
  if (lengthError) return lengthError;
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format && !format(value)) return fail(field, `expected a valid ${String(schema.format)}`);
  return undefined;
}

function checkNumber(field: string, value: unknown, schema: JsonObject, integer: boolean): ElicitAnswerVerdict | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fail(field, integer ? 'expected an integer' : 'expected a number');
  if (integer && !Number.isInteger(value)) return fail(field, 'expected an integer');
  const min = numberOrUndefined(schema.minimum);
  const max = numberOrUndefined(schema.maximum);
  if (min !== undefined && value < min) return fail(field, `expected a value of at least ${min}`);
  if (max !== undefined && value > max) return fail(field, `expected a value of at most ${max}`);
  return undefined;
}

function checkMultiSelect(field: string, value: unknown, schema: JsonObject): ElicitAnswerVerdict | undefined {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return fail(field, 'expected an array of strings');
  const items = isObject(schema.items) ? schema.items : {};
  const allowed = allowedStrings(items, 'enum', 'anyOf');
  if (allowed !== undefined && !value.every((item) => allowed.includes(item))) return fail(field, 'contains a value that is not one of the allowed values');
  return checkCount(field, value.length, schema.minItems, schema.maxItems, 'items');
}

function checkField(field: string, value: unknown, schema: unknown): ElicitAnswerVerdict | undefined {
  if (!isObject(schema)) return fail(field, 'the requested schema for it is not an object');
  switch (schema.type) {
    case 'string':
      return checkString(field, value, schema);
    case 'number':
      return checkNumber(field, value, schema, false);
    case 'integer':
      return checkNumber(field, value, schema, true);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : fail(field, 'expected a boolean');
    case 'array':
      return checkMultiSelect(field, value, schema);
    default:
      return fail(field, `the requested schema has an unsupported type ${JSON.stringify(schema.type) ?? 'undefined'}`);
  }
}

/** Validates an elicitation result against the schema it answers; never throws. */
export function validateElicitAnswer(result: unknown, requestedSchema: unknown): ElicitAnswerVerdict {
  if (!isObject(result)) return { ok: false, reason: 'the elicitation result must be an object' };
  if (typeof result.action !== 'string' || !ACTIONS.includes(result.action)) {
    return fail('action', 'expected "accept", "decline" or "cancel"');
  }
  // Limits hold for every action, so an oversized decline/cancel cannot reach the upstream either.
  const limit = checkAnswerLimits(result);
  if (limit !== undefined) return { ok: false, field: 'content', reason: limit };
  if (result.action !== 'accept') return { ok: true };

  const { content } = result;
  if (requestedSchema === undefined) {
    return content === undefined ? { ok: true } : fail('content', 'not expected without a requestedSchema (URL mode)');
  }
  if (!isObject(requestedSchema) || !isObject(requestedSchema.properties)) {
    return { ok: false, reason: 'the requestedSchema is not an object schema with properties' };
  }
  const properties = requestedSchema.properties;
  const required = Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((k): k is string => typeof k === 'string') : [];

  if (content === undefined) {
    const first = required[0];
    return first === undefined ? { ok: true } : fail(first, 'required, but the answer has no content');
  }
  if (!isObject(content)) return fail('content', 'expected an object');

  for (const key of Object.keys(content)) {
    if (!Object.hasOwn(properties, key)) return fail(key, 'not in the requested schema');
  }
  for (const key of required) {
    if (!Object.hasOwn(content, key)) return fail(key, 'required');
  }
  for (const key of Object.keys(content)) {
    const error = checkField(key, content[key], properties[key]);
    if (error) return error;
  }
  return { ok: true };
}
