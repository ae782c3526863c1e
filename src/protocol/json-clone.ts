/** @module Deep copies of JSON values that keep key order and treat every key, `__proto__` included, as data. */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';

/** Deep copy of a JSON value; key order is kept, so the copy serialises identically. */
export function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) putKey(out, key, cloneJson(child));
    return out;
  }
  return value;
}

/** Defines an own enumerable property, so a JSON key such as `__proto__` stays data instead of setting the prototype. */
export function putKey(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
