/** @module Which paths the templates inside a JSON value reference (`steps.lookup.text`), for checking a composite before it runs. */

import { isObject } from '../../protocol/jsonrpc.js';
import type { Expression } from './ast.js';
import { TEMPLATE_LIMITS } from './ast.js';
import { parseTemplateString } from './parse.js';

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
