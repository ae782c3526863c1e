/** @module The bearer check: exactly the token, in a Bearer header, nothing else. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createBearerCheck } from './bearer-auth.js';

test('accepts exactly `Bearer <token>` (scheme in any case) and refuses everything else', () => {
  const check = createBearerCheck('s3cret-token');
  const cases: [string | null, boolean][] = [
    ['Bearer s3cret-token', true],
    ['bearer s3cret-token', true],
    ['BEARER\ts3cret-token ', true],
    [null, false],
    ['', false],
    ['Bearer', false],
    ['Bearer ', false],
    ['s3cret-token', false],
    ['Basic s3cret-token', false],
    ['Bearer s3cret-toke', false],
    ['Bearer s3cret-token2', false],
    ['Bearer S3CRET-TOKEN', false],
    ['Bearer s3cret-token extra', false],
    ['Bearer  ', false],
  ];
  for (const [header, expected] of cases) assert.equal(check(header), expected, JSON.stringify(header));
});

test('refuses to be built with a token no header could carry', () => {
  assert.throws(() => createBearerCheck(''), /must not be empty/);
  assert.throws(() => createBearerCheck('two words'), /white space/);
});
