/** @module Canonical JSON text (sorted keys, no whitespace): equal JSON values always serialise to the same string. */

import { isObject } from './jsonrpc.js';

/**
 * Serialises a JSON value with every object's keys sorted (by UTF-16 code units, as `Array#sort`
 * does) and no whitespace. Strings and numbers use `JSON.stringify`'s own forms, so two parses of
 * the same text, or the same value with its keys in another order, give the same output.
 * Object members whose value is `undefined` are left out, as `JSON.stringify` does; an `undefined`,
 * function or symbol at the top or in an array, a non-finite number, a bigint or a cycle is not JSON
 * and throws `TypeError`.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, ancestors: Set<object>): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonicalJson: a non-finite number is not JSON');
    return JSON.stringify(value);
  }
  if (Array.isArray(value) || isObject(value)) {
    if (ancestors.has(value)) throw new TypeError('canonicalJson: a cycle is not JSON');
    ancestors.add(value);
    try {
      if (Array.isArray(value)) return `[${value.map((item) => write(item, ancestors)).join(',')}]`;
      const members: string[] = [];
      for (const key of Object.keys(value).sort()) {
        const child = value[key];
        if (child !== undefined) members.push(`${JSON.stringify(key)}:${write(child, ancestors)}`);
      }
      return `{${members.join(',')}}`;
    } finally {
      ancestors.delete(value);
    }
  }
  throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
}
