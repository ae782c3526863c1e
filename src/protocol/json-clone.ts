/** @module Deep copies of JSON values that keep key order and treat every key, `__proto__` included, as data. */

import type { JsonObject } from './jsonrpc.js';

/** Deep copy of a JSON value; key order is kept, so the copy serialises identically. */
export function cloneJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    // An array of scalars (the usual `required`, `enum`) is copied in one go; holes stay holes, as with map.
    for (const item of value) if (typeof item === 'object' && item !== null) return value.map(cloneJson);
    return value.slice();
  }
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const copy = typeof child === 'object' && child !== null ? cloneJson(child) : child;
    Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Defines an own enumerable property, so a JSON key such as `__proto__` stays data instead of setting the prototype. */
export function putKey(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
