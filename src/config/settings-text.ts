/** @module One text for a part of a normalized config, equal exactly when the settings are: what a reload compares and the config version hashes. */

import { createHash } from 'node:crypto';

/** Object keys sorted, `undefined` members left out; what JSON cannot hold (Infinity, a RegExp, a function) as its own text. */
export function settingsText(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'number' && !Number.isFinite(item)) return `#number:${String(item)}`;
    if (item instanceof RegExp || typeof item === 'function' || typeof item === 'bigint') return `#${typeof item}:${String(item)}`;
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
      return Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return item;
  }) ?? 'undefined';
}

/** Whether two parts of normalized configs say the same. */
export function sameSettings(a: unknown, b: unknown): boolean {
  return settingsText(a) === settingsText(b);
}

/** A short, stable version of a whole normalized config (its source path left out): `sha256:` and 12 hex digits. */
export function configVersion<C extends { source?: string }>(config: C): string {
  const { source: _source, ...settings } = config;
  return `sha256:${createHash('sha256').update(settingsText(settings)).digest('hex').slice(0, 12)}`;
}
