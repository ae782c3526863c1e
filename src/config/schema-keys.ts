/** @module The keys a strict object of the config schema allows at a given path (for "did you mean" hints). */

import { z } from 'zod';
import type { ConfigPath } from './config-path.js';

/** Looks through wrappers (optional, default, prefault, nullable, transform pipes) to the schema that parses. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodPrefault || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else if (current instanceof z.ZodUnion) {
      // The alternative with keys (a map that could also be given as a file path, say).
      const options = (current.options as z.ZodType[]).map(unwrap);
      return options.find((option) => option instanceof z.ZodObject || option instanceof z.ZodRecord || option instanceof z.ZodArray) ?? current;
    } else return current;
  }
}

/** The allowed keys of the object schema at `path` inside `root`, or [] when there is none. */
export function allowedKeysAt(root: z.ZodType, path: ConfigPath): string[] {
  let schema: z.ZodType | undefined = unwrap(root);
  for (const segment of path) {
    if (schema instanceof z.ZodObject) schema = (schema.shape as Record<string, z.ZodType>)[segment];
    else if (schema instanceof z.ZodRecord) schema = schema.valueType as z.ZodType;
    else if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else return [];
    if (schema === undefined) return [];
    schema = unwrap(schema);
  }
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The allowed key closest to a misspelt one (at most a third of its letters off), if any. */
export function closestKey(unknown: string, allowed: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(unknown.length / 3)) + 1;
  for (const key of allowed) {
    const distance = editDistance(unknown, key);
    if (distance < bestDistance) {
      best = key;
      bestDistance = distance;
    }
  }
  return best;
}
