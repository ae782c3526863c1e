/** @module How a value from the config file reads inside an error message. */

/** `"text"` (quoted, shortened), `42`, `true`, `a list`, `a map` or `an empty value`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return String(value);
}
