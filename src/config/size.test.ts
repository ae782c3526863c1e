/** @module Tests of size parsing. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSize } from './size.js';

describe('parseSize', () => {
  const good: [number | string, number][] = [
    [0, 0],
    [1024, 1024],
    ['0b', 0],
    ['512b', 512],
    ['64kb', 65_536],
    ['4mb', 4_194_304],
    ['4MB', 4_194_304],
    ['4 mb', 4_194_304],
    ['1gb', 1_073_741_824],
    ['1.5kb', 1536],
    ['0.3kb', 307],
  ];
  for (const [input, bytes] of good) {
    test(`${JSON.stringify(input)} -> ${bytes} bytes`, () => assert.equal(parseSize(input), bytes));
  }

  const bad: [number | string, RegExp][] = [
    [-1, /^must be a whole number of bytes, 0 or more \(got -1\)$/],
    [0.5, /whole number of bytes/],
    [2 ** 60, /whole number of bytes/],
    ['', /^must be a size like 512kb, 4mb or 1gb \(got ""\)$/],
    ['4', /size like/],
    ['4m', /size like/],
    ['4mib', /size like/],
    ['4tb', /size like/],
    ['-4mb', /size like/],
    ['99999999999gb', /^is too large \(got "99999999999gb"\)$/],
  ];
  for (const [input, message] of bad) {
    test(`${JSON.stringify(input)} is rejected`, () => assert.throws(() => parseSize(input), { message }));
  }
});
