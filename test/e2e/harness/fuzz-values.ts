/** @module e2e/harness/fuzz-values: hostile JSON for the fuzz test: values of every wrong type, nesting past the limit, broken text. */
import { DEFAULT_MAX_JSON_DEPTH } from '../../../src/protocol/json-depth.js';
import type { Prng } from './prng.js';

/** A value of a type other than `kind`: what a careless or hostile host puts where `kind` belongs. */
export function wrongTypeFor(kind: 'string' | 'object' | 'number' | 'array', prng: Prng): unknown {
  const all: Record<string, unknown[]> = {
    string: ['', 'x', 'ünïcödé', '0', 'null'],
    object: [{}, { a: 1 }],
    number: [0, -1, 1.5, 1e308],
    array: [[], [1, 'a'], [{}]],
    other: [null, true, false],
  };
  const choices = Object.entries(all)
    .filter(([type]) => type !== kind)
    .flatMap(([, values]) => values);
  return prng.pick(choices);
}

/** JSON text of arrays or objects nested `levels` deep around `1`. */
export function nestedText(levels: number, prng: Prng): string {
  return prng.chance(0.5) ? `${'['.repeat(levels)}1${']'.repeat(levels)}` : `${'{"k":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** Depths past the default limit, from just past it to far past it. */
export function tooDeep(prng: Prng): number {
  return prng.pick([DEFAULT_MAX_JSON_DEPTH + 1, prng.int(DEFAULT_MAX_JSON_DEPTH + 2, 500), prng.int(500, 5_000), 20_000]);
}

/** Text that is not JSON: a message cut short (never a complete value), or bytes that mean nothing. */
export function malformedText(message: unknown, prng: Prng): string {
  const text = JSON.stringify(message);
  switch (prng.int(0, 3)) {
    case 0:
      return text.slice(0, prng.int(1, text.length - 1));
    case 1:
      return `${text.slice(0, -1)},}`;
    case 2:
      return text.replace(/"/g, "'");
    default:
      return prng.pick(['{', '[', 'nul', '{"jsonrpc":"2.0",,}', '\u0000\u0001', 'undefined', '{"a":01}', '"unterminated']);
  }
}

/** `text` with a value of `levels` depth put at `path` (dot-separated keys) inside the JSON object `base`. */
export function withDeepValue(base: Record<string, unknown>, path: string, levels: number, prng: Prng): string {
  const marker = '"__DEEP__"';
  const copy = structuredClone(base);
  const keys = path.split('.');
  let target = copy;
  for (const key of keys.slice(0, -1)) {
    if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  target[keys.at(-1) as string] = '__DEEP__';
  return JSON.stringify(copy).replace(marker, nestedText(levels, prng));
}
