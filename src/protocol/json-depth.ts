/** @module The one nesting limit for JSON a peer sends: a scan that counts depth before `JSON.parse`, without recursion. */

/** The result of reading JSON text under a nesting limit. */
export type BoundedJson = { ok: true; value: unknown } | { ok: false; problem: 'syntax' } | { ok: false; problem: 'too-deep'; maxDepth: number };

/** The limit when none is configured (the default of `http.maxJsonDepth`). */
export const DEFAULT_MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when `text` nests arrays and objects deeper than `maxDepth` (`[]` is depth 1). One pass over the
 * characters, no allocation; brackets inside JSON strings do not count. Text that is not JSON is not
 * judged here (`JSON.parse` rejects it), but the scan never fails on it.
 */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

/** Parses `text` when it nests no deeper than `maxDepth`; the depth is checked first, so a deep value never reaches a recursive parser. */
export function parseJsonWithin(text: string, maxDepth: number): BoundedJson {
  if (exceedsJsonDepth(text, maxDepth)) return { ok: false, problem: 'too-deep', maxDepth };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: 'syntax' };
  }
}

/** The message a peer gets for JSON nested deeper than the limit. */
export function jsonDepthMessage(maxDepth: number): string {
  return `Invalid Request: the JSON nests deeper than ${maxDepth} levels (http.maxJsonDepth)`;
}
