/** @module Text from the network made safe for a terminal: control characters (escape sequences) shown, not obeyed; one-line excerpts. */

// C0 controls except tab and newline, DEL, and the C1 controls (U+0080–U+009F, which include CSI).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Unicode line/paragraph separators and bidirectional overrides that can reorder what a terminal shows.
const INVISIBLE = /[\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character but tab and newline written out as `\uXXXX`, so an upstream's
 * message cannot move the cursor, recolour or retitle the operator's terminal.
 */
export function safeText(text: string): string {
  return text.replace(CONTROL, escapeChar).replace(INVISIBLE, escapeChar);
}

/** `text` on one line: safe, whitespace runs (newlines included) folded to one space, cut to `max` characters with `…`. */
export function excerpt(text: string, max: number): string {
  const line = safeText(text.replace(/\s+/g, ' ').trim());
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Lines of `rows` with each column padded to its widest cell (measured in code points); the last column is not padded. */
export function alignColumns(rows: readonly (readonly string[])[], gap = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length)))
      .join(gap)
      .trimEnd(),
  );
}
