/** @module Terminal-safe text: control characters shown as escapes, excerpts, aligned columns. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { alignColumns, excerpt, safeText } from './terminal-text.js';

describe('safeText', () => {
  const cases: [string, string][] = [
    ['plain text, tabs\tand\nnewlines stay', 'plain text, tabs\tand\nnewlines stay'],
    ['\u001b[31mred\u001b[0m', '\\u001b[31mred\\u001b[0m'],
    ['bell\u0007 and DEL\u007f', 'bell\\u0007 and DEL\\u007f'],
    ['carriage\rreturn', 'carriage\\u000dreturn'],
    ['C1 CSI\u009b2J', 'C1 CSI\\u009b2J'],
    ['bidi \u202eevil', 'bidi \\u202eevil'],
    ['ünïcödé ✓ 日本', 'ünïcödé ✓ 日本'],
  ];
  for (const [input, output] of cases) {
    it(JSON.stringify(input), () => assert.equal(safeText(input), output));
  }
});

describe('excerpt', () => {
  it('folds whitespace to one line and cuts with an ellipsis at the limit, counting code points', () => {
    assert.equal(excerpt('  Restart\npayments-api?\n\n  Now ', 40), 'Restart payments-api? Now');
    assert.equal(excerpt('abcdefghij', 5), 'abcd…');
    assert.equal(excerpt('abcde', 5), 'abcde');
    assert.equal(excerpt('😀😀😀😀😀😀', 4), '😀😀😀…');
  });
});

describe('alignColumns', () => {
  it('pads every column but the last to its widest cell', () => {
    assert.deepEqual(alignColumns([['ID', 'STATE', 'MESSAGE'], ['q-1', 'delivered', 'Restart?'], ['q-22', 'answered', '']]), ['ID    STATE      MESSAGE', 'q-1   delivered  Restart?', 'q-22  answered']);
  });
});
