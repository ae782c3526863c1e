/** @module The glob patterns of the policy: `*` for any run of characters, `?` for one, everything else literal and case-sensitive. */

const cache = new Map<string, RegExp>();
const MAX_CACHED = 1_000;

function compile(pattern: string): RegExp {
  let source = '';
  for (const char of pattern) {
    if (char === '*') source += '[\\s\\S]*';
    else if (char === '?') source += '[\\s\\S]';
    else source += char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u');
}

/** Whether `text` matches `pattern` whole (`desk_*`, `*restart_service`, `file:///srv/*`). */
export function globMatch(pattern: string, text: string): boolean {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    compiled = compile(pattern);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(pattern, compiled);
  }
  return compiled.test(text);
}

/** Whether any of `patterns` matches `text`. */
export function anyGlob(patterns: readonly string[], text: string): boolean {
  return patterns.some((pattern) => globMatch(pattern, text));
}
