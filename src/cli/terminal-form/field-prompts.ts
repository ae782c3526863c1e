/**
 * @module A form elicitation's requestedSchema as terminal prompts, pure: schema → field prompts, typed text → value or error.
 *
 * The value a field takes is checked with the gateway's own answer rules (translation/elicitation-answer.ts),
 * so the terminal refuses exactly what the gateway would. Choices are picked by number, by value or by title;
 * a multi-select takes them comma-separated; booleans take y/n (yes/no, true/false).
 */

import type { JsonObject } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { validateElicitAnswer } from '../../translation/elicitation-answer.js';

export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'multi';

export interface Choice {
  /** What goes into `content`. */
  value: string;
  /** What the person reads (the title, else the value). */
  title: string;
}

export interface FieldPrompt {
  /** The property name: the key in `content`. */
  name: string;
  /** Its `title`, else its name. */
  label: string;
  description?: string;
  kind: FieldKind;
  required: boolean;
  /** The schema's default, taken on empty input. */
  default?: unknown;
  choices?: Choice[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  /** The property schema as asked, which every value is checked against. */
  schema: JsonObject;
}

export type FieldValue = { ok: true; value: unknown } | { ok: false; error: string };
/** `value` undefined: leave the field out of `content`. */
export type FieldAnswer = { ok: true; value: unknown | undefined } | { ok: false; error: string };

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The choices of a single-select (`enum` + `enumNames`, or `oneOf` of `{const, title}`) or of a multi-select's `items`. */
function choicesOf(schema: JsonObject, listKey: 'oneOf' | 'anyOf'): Choice[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({ value: String(value), title: typeof names[i] === 'string' ? names[i] : String(value) }));
  }
  const list = schema[listKey];
  if (!Array.isArray(list)) return undefined;
  return list.filter(isObject).map((option) => ({ value: String(option.const), title: typeof option.title === 'string' ? option.title : String(option.const) }));
}

function kindOf(schema: JsonObject): { kind: FieldKind; choices?: Choice[] } {
  switch (schema.type) {
    case 'number':
      return { kind: 'number' };
    case 'integer':
      return { kind: 'integer' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'array': {
      const choices = choicesOf(isObject(schema.items) ? schema.items : {}, 'anyOf') ?? [];
      return { kind: 'multi', choices };
    }
    default: {
      const choices = choicesOf(schema, 'oneOf');
      return choices === undefined ? { kind: 'text' } : { kind: 'choice', choices };
    }
  }
}

/** One property schema as a prompt. */
export function fieldFromProperty(name: string, property: unknown, required: boolean): FieldPrompt {
  const schema = isObject(property) ? property : {};
  const field: FieldPrompt = { name, label: text(schema.title) ?? name, required, schema, ...kindOf(schema) };
  const description = text(schema.description);
  if (description !== undefined) field.description = description;
  if (schema.default !== undefined) field.default = schema.default;
  if (typeof schema.format === 'string') field.format = schema.format;
  for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    const value = finite(schema[key]);
    if (value !== undefined) field[key] = value;
  }
  return field;
}

/** The fields of a requestedSchema, in the order of its properties (the schema is assumed checked, see elicitation-schema.ts). */
export function fieldsFromSchema(requestedSchema: unknown): FieldPrompt[] {
  if (!isObject(requestedSchema) || !isObject(requestedSchema.properties)) return [];
  const required = Array.isArray(requestedSchema.required) ? requestedSchema.required : [];
  return Object.entries(requestedSchema.properties).map(([name, property]) => fieldFromProperty(name, property, required.includes(name)));
}

function range(min: number | undefined, max: number | undefined, unit = ''): string | undefined {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}${unit}` : `${min} to ${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  if (max !== undefined) return `at most ${max}${unit}`;
  return undefined;
}

const FORMAT_HINTS: Record<string, string> = {
  email: 'an email address',
  uri: 'a URI',
  date: 'a date, YYYY-MM-DD',
  'date-time': 'a date-time, e.g. 2025-06-01T12:00:00Z',
};

/** What the field takes, in words: `text, 3 to 20 characters, required`. */
export function fieldHint(field: FieldPrompt): string {
  const parts: (string | undefined)[] = [];
  switch (field.kind) {
    case 'text':
      parts.push(field.format === undefined ? 'text' : (FORMAT_HINTS[field.format] ?? `text (${field.format})`), range(field.minLength, field.maxLength, ' characters'));
      break;
    case 'number':
    case 'integer':
      parts.push(field.kind === 'integer' ? 'whole number' : 'number', range(field.minimum, field.maximum));
      break;
    case 'boolean':
      parts.push('yes/no');
      break;
    case 'choice':
      parts.push('one choice');
      break;
    case 'multi':
      parts.push('choices separated by commas', range(field.minItems, field.maxItems, ' choices'));
      break;
  }
  if (field.required) parts.push('required');
  return parts.filter((part) => part !== undefined).join(', ');
}

function choiceTitle(field: FieldPrompt, value: unknown): string {
  return field.choices?.find((choice) => choice.value === value)?.title ?? String(value);
}

/** How the default reads: a choice's title, a multi-select's titles. */
function defaultText(field: FieldPrompt): string {
  if (field.kind === 'multi' && Array.isArray(field.default)) return field.default.map((value) => choiceTitle(field, value)).join(', ') || 'none';
  if (field.kind === 'choice') return choiceTitle(field, field.default);
  return String(field.default);
}

/** The lines shown before the prompt: the label with its hint, the description, the numbered choices. Not yet terminal-safe. */
export function fieldLines(field: FieldPrompt): string[] {
  const lines = [`${field.label} [${fieldHint(field)}]`];
  if (field.description !== undefined) lines.push(`  ${field.description}`);
  const defaults = field.kind === 'multi' && Array.isArray(field.default) ? field.default : [field.default];
  field.choices?.forEach((choice, i) => {
    const isDefault = field.default !== undefined && defaults.includes(choice.value);
    lines.push(`  ${i + 1}) ${choice.title}${isDefault ? ' (default)' : ''}`);
  });
  return lines;
}

/** The prompt itself: `[Y/n] > ` for booleans, `[default: X] > ` when Enter takes a default, else `> `. */
export function promptText(field: FieldPrompt): string {
  if (field.kind === 'boolean') return field.default === true ? '[Y/n] > ' : field.default === false ? '[y/N] > ' : '[y/n] > ';
  return field.default === undefined ? '> ' : `[default: ${defaultText(field)}] > `;
}

const YES = ['y', 'yes', 'true', 'on', '1'];
const NO = ['n', 'no', 'false', 'off', '0'];
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A choice by exact value, else by number (1-based), else by title or value ignoring case. */
function pickChoice(choices: readonly Choice[], input: string): string | undefined {
  const exact = choices.find((choice) => choice.value === input);
  if (exact !== undefined) return exact.value;
  if (/^\d+$/.test(input)) return choices[Number(input) - 1]?.value;
  const folded = input.toLowerCase();
  return choices.find((choice) => choice.title.toLowerCase() === folded || choice.value.toLowerCase() === folded)?.value;
}

function choiceError(choices: readonly Choice[], input: string): string {
  return `${JSON.stringify(input)} is not one of the choices: type a number from 1 to ${choices.length}`;
}

/** The field's check, from the gateway's own rules, without the `field "name": ` prefix. */
export function checkValue(field: FieldPrompt, value: unknown): string | undefined {
  const verdict = validateElicitAnswer({ action: 'accept', content: { [field.name]: value } }, { type: 'object', properties: { [field.name]: field.schema } });
  if (verdict.ok) return undefined;
  const prefix = `field ${JSON.stringify(field.name)}: `;
  return verdict.reason.startsWith(prefix) ? verdict.reason.slice(prefix.length) : verdict.reason;
}

function coerce(field: FieldPrompt, input: string): FieldValue {
  switch (field.kind) {
    case 'text':
      return { ok: true, value: input };
    case 'number':
    case 'integer': {
      const trimmed = input.trim();
      if (!NUMBER.test(trimmed)) return { ok: false, error: field.kind === 'integer' ? 'expected a whole number' : 'expected a number' };
      return { ok: true, value: Number(trimmed) };
    }
    case 'boolean': {
      const word = input.trim().toLowerCase();
      if (YES.includes(word)) return { ok: true, value: true };
      if (NO.includes(word)) return { ok: true, value: false };
      return { ok: false, error: 'answer y or n' };
    }
    case 'choice': {
      const choices = field.choices ?? [];
      const value = pickChoice(choices, input.trim());
      return value === undefined ? { ok: false, error: choiceError(choices, input.trim()) } : { ok: true, value };
    }
    case 'multi': {
      const choices = field.choices ?? [];
      const picked: string[] = [];
      for (const item of input.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
        const value = pickChoice(choices, item);
        if (value === undefined) return { ok: false, error: choiceError(choices, item) };
        if (!picked.includes(value)) picked.push(value);
      }
      return { ok: true, value: picked };
    }
  }
}

/**
 * The value `input` gives the field, checked: a number for numbers, true/false for y/n, a choice's value, a
 * multi-select's values from a comma list. An empty input is taken literally (an empty string, no choices).
 */
export function parseFieldValue(field: FieldPrompt, input: string): FieldValue {
  const coerced = coerce(field, input);
  if (!coerced.ok) return coerced;
  const error = checkValue(field, coerced.value);
  return error === undefined ? coerced : { ok: false, error };
}

/**
 * What one line typed at the field's prompt gives: empty takes the default, else is an error when the field is
 * required, else leaves the field out; anything else is parsed (text is trimmed).
 */
export function answerField(field: FieldPrompt, line: string): FieldAnswer {
  const input = line.trim();
  if (input === '') {
    if (field.default !== undefined) {
      const error = checkValue(field, field.default);
      return error === undefined ? { ok: true, value: field.default } : { ok: false, error: `the default does not fit: ${error}; type a value` };
    }
    if (field.required) return { ok: false, error: field.kind === 'boolean' ? 'required: answer y or n' : 'required: type a value' };
    return { ok: true, value: undefined };
  }
  return parseFieldValue(field, input);
}
