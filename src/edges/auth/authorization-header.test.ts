/** @module Reading `Authorization` for a Bearer token: absent, another scheme, malformed, the token. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { readBearer } from './authorization-header.js';
import type { BearerCredential } from './authorization-header.js';

test('each header is read as RFC 6750 and RFC 9110 say', () => {
  const cases: [string | null, 'token68' | 'nonBlank', BearerCredential['kind'], string?][] = [
    [null, 'token68', 'absent'],
    ['', 'token68', 'absent'],
    [' \t ', 'token68', 'absent'],
    ['Bearer abc.DEF-_~+/==', 'token68', 'bearer', 'abc.DEF-_~+/=='],
    ['bearer abc', 'token68', 'bearer', 'abc'],
    ['BeArEr    abc   ', 'token68', 'bearer', 'abc'],
    ['Bearer\tabc', 'token68', 'bearer', 'abc'],
    ['Basic dXNlcjpwYXNz', 'token68', 'otherScheme'],
    ['DPoP abc', 'token68', 'otherScheme'],
    ['abc', 'token68', 'otherScheme'],
    ['"Bearer" abc', 'token68', 'otherScheme'],
    ['Bearer', 'token68', 'malformed'],
    ['Bearer   ', 'token68', 'malformed'],
    ['Bearer a b', 'token68', 'malformed'],
    ['Bearer a\nb', 'token68', 'malformed'],
    ['Bearer a=b', 'token68', 'malformed'],
    ['Bearer k!ey', 'token68', 'malformed'],
    ['Bearer k!ey', 'nonBlank', 'bearer', 'k!ey'],
    ['Bearer k!ey x', 'nonBlank', 'malformed'],
  ];
  for (const [header, syntax, kind, token] of cases) {
    const read = readBearer(header, syntax);
    assert.equal(read.kind, kind, `${JSON.stringify(header)} ${syntax}`);
    if (read.kind === 'bearer') assert.equal(read.token, token);
  }
});
