/** @module Config paths (`['upstreams', 'desk', 'args', 1]`) and their dotted form (`upstreams.desk.args[1]`). */

export type ConfigPath = (string | number)[];

const PLAIN_KEY_RE = /^[A-Za-z0-9_-]+$/;

/** `upstreams.desk.args[1]`; keys that are not plain words are quoted: `upstreams."my server"`. */
export function formatConfigPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else {
      const key = PLAIN_KEY_RE.test(segment) ? segment : JSON.stringify(segment);
      text += text === '' ? key : `.${key}`;
    }
  }
  return text === '' ? '(top level)' : text;
}

/** The value found by following `path` into plain data, or undefined. */
export function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let value = data;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
