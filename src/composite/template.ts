/** @module The composite template language: `{{ path }}` lookups, `==`/`!=` comparisons, `!` and three filters over plain JSON values; no code runs, no prototype is reachable. */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { putKey } from '../protocol/json-clone.js';

/*
 * Grammar (inside `{{ … }}`, whitespace between tokens is free):
 *
 *   expression := operand [ ('==' | '!=') operand ]
 *   operand    := ['!'] primary { '|' filter }
 *   primary    := path | literal
 *   path       := root { '.' name | '[' integer ']' | '[' string ']' }
 *   root       := 'input' | 'steps' | 'item' | 'index'
 *   name       := [A-Za-z_][A-Za-z0-9_-]*
 *   literal    := string ('…' or "…", with \\ \' \" \n \t escapes) | number | true | false | null
 *   filter     := 'json' | 'length' | 'default' '(' literal ')'
 *
 * `!` applies to its operand (before the comparison), filters bind tighter than `!`:
 * `!steps.a.text | length` is "not (length of the text)". Lookups see only own properties of plain
 * objects and integer indexes of arrays; anything else (a missing key, indexing a string or a
 * number, `constructor`, `__proto__` that is not an own data key) gives `undefined`.
 */

/** The roots a path may start at. */
export const TEMPLATE_ROOTS = ['input', 'steps', 'item', 'index'] as const;
export type TemplateRoot = (typeof TEMPLATE_ROOTS)[number];

/** What templates can see. `steps` maps a step id to its output. */
export interface TemplateScope {
  input?: unknown;
  steps?: Record<string, unknown>;
  item?: unknown;
  index?: number;
}

export type Literal = string | number | boolean | null;

export type Primary = { kind: 'path'; root: TemplateRoot; segments: (string | number)[] } | { kind: 'literal'; value: Literal };

export type Filter = { name: 'json' } | { name: 'length' } | { name: 'default'; value: Literal };

export interface Operand {
  negate: boolean;
  primary: Primary;
  filters: Filter[];
}

export interface Expression {
  left: Operand;
  comparison?: { op: '==' | '!='; right: Operand };
}

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'expression'; expression: Expression; source: string };

export type ParseResult = { ok: true; parts: TemplatePart[] } | { ok: false; reason: string };

/** A template that cannot be parsed or rendered; the message says which and why. */
export class TemplateError extends Error {
  override name = 'TemplateError';
}

/** Longest single `{{ … }}` expression, and deepest value rendered: bounds on hostile input. */
export const TEMPLATE_LIMITS = { expressionChars: 1000, depth: 64 } as const;

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_-]/;
const DIGIT = /[0-9]/;

/** Splits a string into literal text and parsed `{{ … }}` expressions. Linear in the length of `text`. */
export function parseTemplateString(text: string): ParseResult {
  const parts: TemplatePart[] = [];
  let pos = 0;
  while (pos < text.length) {
    const open = text.indexOf('{{', pos);
    if (open === -1) {
      parts.push({ kind: 'text', text: text.slice(pos) });
      break;
    }
    if (open > pos) parts.push({ kind: 'text', text: text.slice(pos, open) });
    const parser = new ExpressionParser(text, open + 2);
    const parsed = parser.parse();
    if (!parsed.ok) return { ok: false, reason: `template at character ${open + 1}: ${parsed.reason}` };
    parts.push({ kind: 'expression', expression: parsed.expression, source: text.slice(open, parsed.end) });
    pos = parsed.end;
  }
  return { ok: true, parts };
}

type ExpressionParse = { ok: true; expression: Expression; end: number } | { ok: false; reason: string };

/** A recursive-descent parser over one `{{ … }}`; it stops at the closing `}}`. */
class ExpressionParser {
  private pos: number;
  private readonly start: number;

  constructor(
    private readonly text: string,
    start: number,
  ) {
    this.pos = start;
    this.start = start;
  }

  parse(): ExpressionParse {
    try {
      const left = this.operand();
      this.space();
      let comparison: Expression['comparison'];
      if (this.peek('==') || this.peek('!=')) {
        const op = this.text.slice(this.pos, this.pos + 2) as '==' | '!=';
        this.pos += 2;
        comparison = { op, right: this.operand() };
        this.space();
      }
      if (!this.peek('}}')) {
        if (this.pos >= this.text.length) throw new TemplateError('"{{" is never closed with "}}"');
        throw new TemplateError(`unexpected ${JSON.stringify(this.text.slice(this.pos, this.pos + 10))}; expected "}}"`);
      }
      this.pos += 2;
      return { ok: true, expression: comparison ? { left, comparison } : { left }, end: this.pos };
    } catch (error) {
      if (error instanceof TemplateError) return { ok: false, reason: error.message };
      throw error;
    }
  }

  private guard(): void {
    if (this.pos - this.start > TEMPLATE_LIMITS.expressionChars) {
      throw new TemplateError(`an expression is longer than ${TEMPLATE_LIMITS.expressionChars} characters`);
    }
  }

  private space(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] ?? '')) this.pos++;
    this.guard();
  }

  private peek(token: string): boolean {
    return this.text.startsWith(token, this.pos);
  }

  private operand(): Operand {
    this.space();
    let negate = false;
    if (this.peek('!') && !this.peek('!=')) {
      negate = true;
      this.pos++;
      this.space();
      if (this.peek('!')) throw new TemplateError('only one "!" is allowed');
    }
    const primary = this.primary();
    const filters: Filter[] = [];
    this.space();
    while (this.peek('|')) {
      this.pos++;
      this.space();
      filters.push(this.filter());
      this.space();
    }
    return { negate, primary, filters };
  }

  private primary(): Primary {
    const c = this.text[this.pos] ?? '';
    if (c === "'" || c === '"' || c === '-' || DIGIT.test(c)) return { kind: 'literal', value: this.literal() };
    if (!NAME_START.test(c)) {
      if (this.pos >= this.text.length || this.peek('}}')) throw new TemplateError('an expression is empty or ends too early');
      throw new TemplateError(`unexpected ${JSON.stringify(c)}; expected a path (input, steps, item, index) or a literal`);
    }
    const word = this.name();
    if (word === 'true' || word === 'false') return { kind: 'literal', value: word === 'true' };
    if (word === 'null') return { kind: 'literal', value: null };
    if (!(TEMPLATE_ROOTS as readonly string[]).includes(word)) {
      throw new TemplateError(`unknown name ${JSON.stringify(word)}; a path starts at input, steps, item or index`);
    }
    const segments: (string | number)[] = [];
    for (;;) {
      if (this.peek('.')) {
        this.pos++;
        if (!NAME_START.test(this.text[this.pos] ?? '')) throw new TemplateError('expected a name after "."');
        segments.push(this.name());
      } else if (this.peek('[')) {
        this.pos++;
        this.space();
        const c2 = this.text[this.pos] ?? '';
        if (c2 === "'" || c2 === '"') segments.push(this.string());
        else if (DIGIT.test(c2)) segments.push(this.integer());
        else throw new TemplateError('expected an index or a quoted key inside "[ ]"');
        this.space();
        if (!this.peek(']')) throw new TemplateError('expected "]"');
        this.pos++;
      } else {
        return { kind: 'path', root: word as TemplateRoot, segments };
      }
      this.guard();
    }
  }

  private filter(): Filter {
    if (!NAME_START.test(this.text[this.pos] ?? '')) throw new TemplateError('expected a filter name after "|"');
    const name = this.name();
    if (name === 'json' || name === 'length') return { name };
    if (name !== 'default') throw new TemplateError(`unknown filter ${JSON.stringify(name)}; the filters are json, length and default(…)`);
    this.space();
    if (!this.peek('(')) throw new TemplateError('default needs a value: default(\'…\')');
    this.pos++;
    this.space();
    const value = this.literal();
    this.space();
    if (!this.peek(')')) throw new TemplateError('expected ")" after the default value');
    this.pos++;
    return { name: 'default', value };
  }

  private literal(): Literal {
    const c = this.text[this.pos] ?? '';
    if (c === "'" || c === '"') return this.string();
    if (c === '-' || DIGIT.test(c)) return this.number();
    if (NAME_START.test(c)) {
      const word = this.name();
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
      throw new TemplateError(`expected a literal, not ${JSON.stringify(word)}`);
    }
    throw new TemplateError('expected a literal (a quoted string, a number, true, false or null)');
  }

  private name(): string {
    const from = this.pos;
    while (this.pos < this.text.length && NAME_CHAR.test(this.text[this.pos] ?? '')) this.pos++;
    this.guard();
    return this.text.slice(from, this.pos);
  }

  private integer(): number {
    const from = this.pos;
    while (DIGIT.test(this.text[this.pos] ?? '')) this.pos++;
    this.guard();
    const value = Number(this.text.slice(from, this.pos));
    if (!Number.isSafeInteger(value)) throw new TemplateError('an index is too large');
    return value;
  }

  private number(): number {
    const from = this.pos;
    if (this.peek('-')) this.pos++;
    if (!DIGIT.test(this.text[this.pos] ?? '')) throw new TemplateError('expected a digit');
    while (DIGIT.test(this.text[this.pos] ?? '')) this.pos++;
    if (this.peek('.')) {
      this.pos++;
      if (!DIGIT.test(this.text[this.pos] ?? '')) throw new TemplateError('expected a digit after "."');
      while (DIGIT.test(this.text[this.pos] ?? '')) this.pos++;
    }
    this.guard();
    return Number(this.text.slice(from, this.pos));
  }

  private string(): string {
    const quote = this.text[this.pos];
    this.pos++;
    let out = '';
    for (;;) {
      this.guard();
      if (this.pos >= this.text.length) throw new TemplateError('a string literal is never closed');
      const c = this.text[this.pos] ?? '';
      this.pos++;
      if (c === quote) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.text[this.pos] ?? '';
      this.pos++;
      if (e === 'n') out += '\n';
      else if (e === 't') out += '\t';
      else if (e === '\\' || e === "'" || e === '"') out += e;
      else throw new TemplateError(`unknown escape "\\${e}" in a string literal`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// References

export type RefsResult = { ok: true; refs: string[][] } | { ok: false; reason: string; at?: string };

/**
 * Every path referenced by the templated strings anywhere in `value` (a JSON value), each as its root
 * and segments (`['steps', 'lookup', 'text']`; indexes as decimal strings). A bad template gives its
 * reason and where it is in `value` (`arguments.query`, `[2]`; absent for a top-level string).
 */
export function templateRefs(value: unknown): RefsResult {
  const refs: string[][] = [];
  const stack: { value: unknown; at: string; depth: number }[] = [{ value, at: '', depth: 0 }];
  while (stack.length > 0) {
    const current = stack.pop() as { value: unknown; at: string; depth: number };
    if (current.depth > TEMPLATE_LIMITS.depth) return { ok: false, reason: `nested deeper than ${TEMPLATE_LIMITS.depth} levels`, ...where(current.at) };
    const v = current.value;
    if (typeof v === 'string') {
      const parsed = parseTemplateString(v);
      if (!parsed.ok) return { ok: false, reason: parsed.reason, ...where(current.at) };
      for (const part of parsed.parts) if (part.kind === 'expression') collectRefs(part.expression, refs);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], at: `${current.at}[${i}]`, depth: current.depth + 1 });
    } else if (isObject(v)) {
      const keys = Object.keys(v).reverse();
      for (const key of keys) stack.push({ value: v[key], at: joinKey(current.at, key), depth: current.depth + 1 });
    }
  }
  return { ok: true, refs };
}

function where(at: string): { at?: string } {
  return at === '' ? {} : { at };
}

function joinKey(at: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (at === '' ? key : `${at}.${key}`) : `${at}[${JSON.stringify(key)}]`;
}

function collectRefs(expression: Expression, refs: string[][]): void {
  for (const operand of [expression.left, expression.comparison?.right]) {
    if (operand?.primary.kind === 'path') refs.push([operand.primary.root, ...operand.primary.segments.map(String)]);
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering

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

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    throw new TemplateError('a value cannot be written as JSON');
  }
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

/** Evaluates one parsed expression against the scope. */
export function evaluate(expression: Expression, scope: TemplateScope): unknown {
  const left = evaluateOperand(expression.left, scope);
  if (!expression.comparison) return left;
  const right = evaluateOperand(expression.comparison.right, scope);
  const same = jsonEqual(left, right);
  return expression.comparison.op === '==' ? same : !same;
}

function evaluateOperand(operand: Operand, scope: TemplateScope): unknown {
  let value = operand.primary.kind === 'literal' ? operand.primary.value : lookup(scope, operand.primary.root, operand.primary.segments);
  for (const filter of operand.filters) value = applyFilter(filter, value);
  return operand.negate ? !truthy(value) : value;
}

function applyFilter(filter: Filter, value: unknown): unknown {
  switch (filter.name) {
    case 'json':
      return value === undefined ? 'null' : jsonText(value);
    case 'length':
      if (typeof value === 'string' || Array.isArray(value)) return value.length;
      return isPlainObject(value) ? Object.keys(value).length : 0;
    case 'default':
      return value === undefined || value === null || value === '' ? filter.value : value;
  }
}

function isPlainObject(value: unknown): value is JsonObject {
  if (!isObject(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Looks a path up: own data properties of plain objects and integer indexes of arrays only. */
function lookup(scope: TemplateScope, root: TemplateRoot, segments: (string | number)[]): unknown {
  let current: unknown = Object.hasOwn(scope, root) ? scope[root] : undefined;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (typeof segment !== 'number' || segment >= current.length) return undefined;
      current = current[segment];
    } else if (isPlainObject(current)) {
      const key = String(segment);
      if (!Object.hasOwn(current, key)) return undefined;
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      if (!descriptor || !('value' in descriptor)) return undefined;
      current = descriptor.value;
    } else {
      return undefined;
    }
  }
  return typeof current === 'function' || typeof current === 'symbol' || typeof current === 'bigint' ? undefined : current;
}

/** Equality of JSON values; a missing value equals null. */
function jsonEqual(a: unknown, b: unknown): boolean {
  const x = a === undefined ? null : a;
  const y = b === undefined ? null : b;
  if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) return x === y;
  try {
    return stableText(x) === stableText(y);
  } catch {
    return false;
  }
}

function stableText(value: unknown, depth = 0): string {
  if (depth > TEMPLATE_LIMITS.depth) throw new TemplateError('too deep to compare');
  if (Array.isArray(value)) return `[${value.map((item) => stableText(item, depth + 1)).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${stableText(value[key], depth + 1)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** How conditions read a value: false, '', 0, NaN, null, undefined, [] and 'false' are false; everything else is true. */
export function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '' || value === 'false') return false;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (Array.isArray(value)) return value.length > 0;
  return true;
}
