/** @module Bearer challenges are valid RFC 9110 `WWW-Authenticate` values whatever the attribute values hold. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { bearerChallenge, descriptionText, quotedString } from './challenge.js';

// RFC 9110 §11.6.1 / §5.6: challenge = auth-scheme [ 1*SP #auth-param ]; auth-param = token BWS "=" BWS quoted-string.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\uffff]|\\\\[\\t \\x21-\\x7e\\x80-\\uffff])*"';
const CHALLENGE = new RegExp(`^${TOKEN}(?: ${TOKEN}=${QUOTED}(?:, ${TOKEN}=${QUOTED})*)?$`);

/** The attribute values of a challenge, unescaped. */
function parse(header: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const match of header.matchAll(new RegExp(`(${TOKEN})=(${QUOTED})`, 'g'))) {
    values[match[1] ?? ''] = (match[2] ?? '').slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return values;
}

test('a challenge with awkward values is still syntactically valid, and reads back to what was meant', () => {
  const header = bearerChallenge({ realm: 'sw"it\\ch', error: 'invalid_token', error_description: 'bad "token"\\ here\nnext é', resource_metadata: 'https://h/.well-known/oauth-protected-resource/mcp' });
  assert.match(header, CHALLENGE);
  assert.deepEqual(parse(header), {
    realm: 'sw"it\\ch',
    error: 'invalid_token',
    error_description: "bad 'token'? here?next ?",
    resource_metadata: 'https://h/.well-known/oauth-protected-resource/mcp',
  });
});

test('attributes come in the order given, undefined ones are left out, none at all is the bare scheme', () => {
  assert.equal(bearerChallenge({ resource_metadata: 'u', scope: 'a b' }), 'Bearer resource_metadata="u", scope="a b"');
  assert.equal(bearerChallenge({ error: 'invalid_request', scope: undefined }), 'Bearer error="invalid_request"');
  assert.equal(bearerChallenge({}), 'Bearer');
});

test('quoted strings escape quote and backslash and drop control characters; descriptions keep to RFC 6750\'s set', () => {
  assert.equal(quotedString('a"b\\c\x01d\te'), '"a\\"b\\\\c d\te"');
  assert.equal(descriptionText('ok: !#[]~ "q" \\ \x7f ü'), "ok: !#[]~ 'q' ? ? ?");
});
