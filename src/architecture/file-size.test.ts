/** @module No file in src/ is over 400 lines (tests, helpers and console assets included): a file that grows past it holds more than one concept. */

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const SRC = new URL('../', import.meta.url);
const MAX_LINES = 400;
const CODE = /\.(ts|js|mjs|cjs|css|html)$/;

/** Lines of a text: a last line without a newline counts; a trailing newline does not make one more. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

test('the line count counts what an editor shows', () => {
  assert.equal(lineCount(''), 0);
  assert.equal(lineCount('a'), 1);
  assert.equal(lineCount('a\n'), 1);
  assert.equal(lineCount('a\nb\n'), 2);
  assert.equal(lineCount('a\n\nb'), 3);
});

test(`no file in src/ is over ${MAX_LINES} lines`, () => {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((path) => CODE.test(path));
  assert.ok(files.length > 300, `only ${files.length} files read`);
  const over = files
    .map((path) => ({ path, lines: lineCount(readFileSync(new URL(path, SRC), 'utf8')) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ path, lines }) => `${path}: ${lines} lines`);
  assert.deepEqual(over, [], 'split it by concept');
});
