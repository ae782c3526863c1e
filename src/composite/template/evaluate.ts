/** @module Evaluates one parsed template expression against the scope: safe lookups, the three filters, `==`/`!=` over JSON values, truthiness. */

import { canonicalJson } from '../../protocol/canonical-json.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import type { Expression, Filter, Operand, TemplateRoot, TemplateScope } from './ast.js';
import { TemplateError } from './ast.js';

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

/** A value as JSON text; a value JSON cannot hold (a cycle, a bigint) is a TemplateError. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    throw new TemplateError('a value cannot be written as JSON');
  }
}

/** Equality of JSON values; a missing value equals null, and a value that is not JSON equals nothing. */
function jsonEqual(a: unknown, b: unknown): boolean {
  const x = a === undefined ? null : a;
  const y = b === undefined ? null : b;
  if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) return x === y;
  try {
    return canonicalJson(x) === canonicalJson(y);
  } catch {
    return false;
  }
}

/** How conditions read a value: false, '', 0, NaN, null, undefined, [] and 'false' are false; everything else is true. */
export function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '' || value === 'false') return false;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (Array.isArray(value)) return value.length > 0;
  return true;
}
