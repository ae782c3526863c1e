/** @module Parses the composite template language: a string into literal text and `{{ … }}` expressions, linear in its length. */

import type { Expression, Filter, Literal, Operand, Primary, TemplatePart, TemplateRoot } from './ast.js';
import { TEMPLATE_LIMITS, TEMPLATE_ROOTS, TemplateError } from './ast.js';

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

export type ParseResult = { ok: true; parts: TemplatePart[] } | { ok: false; reason: string };

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
