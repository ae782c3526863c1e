/** @module Tests of URL redaction: userinfo and every query value go, everything else stays as written. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { redactUrl, redactUrlsIn } from './redact-url.js';

describe('redactUrl', () => {
  it('replaces the userinfo and every query value, keeping scheme, host, port, path, keys and fragment', () => {
    assert.equal(redactUrl('https://alice:pa55@api.example.com:8443/v1/mcp?api_key=K3Y&region=eu#top'), 'https://***@api.example.com:8443/v1/mcp?api_key=***&region=***#top');
  });

  it('replaces a user without a password, a bare query item and an empty value, and keeps a URL without credentials as it is', () => {
    assert.equal(redactUrl('http://token@h/p'), 'http://***@h/p');
    assert.equal(redactUrl('http://h/p?sekrit&a=&b=1'), 'http://h/p?***&a=***&b=***');
    assert.equal(redactUrl('http://127.0.0.1:3000/mcp'), 'http://127.0.0.1:3000/mcp');
    assert.equal(redactUrl('http://h?k=v'), 'http://h?k=***');
  });

  it('leaves text that is not a URL alone', () => {
    assert.equal(redactUrl('not a url?k=v'), 'not a url?k=v');
  });
});

describe('redactUrlsIn', () => {
  it('redacts every URL inside a message, and keeps the punctuation of the sentence', () => {
    const message = "upstream 'v' (http://u:p@h:1/mcp?api_key=K): Request cannot be constructed from a URL that includes credentials: http://u:p@h:1/mcp?api_key=K.";
    assert.equal(
      redactUrlsIn(message),
      "upstream 'v' (http://***@h:1/mcp?api_key=***): Request cannot be constructed from a URL that includes credentials: http://***@h:1/mcp?api_key=***.",
    );
  });

  it('stops at a quote or a backslash, so a URL inside (escaped) JSON keeps the JSON intact', () => {
    assert.equal(redactUrlsIn('{"u":"http://a:b@h/p?k=v"}'), '{"u":"http://***@h/p?k=***"}');
    assert.equal(redactUrlsIn('"{\\"u\\":\\"http://a:b@h/p?k=v\\"}"'), '"{\\"u\\":\\"http://***@h/p?k=***\\"}"');
  });

  it('returns a text without URLs unchanged', () => {
    assert.equal(redactUrlsIn('connect ECONNREFUSED 127.0.0.1:9 (user@host)'), 'connect ECONNREFUSED 127.0.0.1:9 (user@host)');
  });
});
