import assert from 'node:assert/strict';
import { test } from 'node:test';

import { pathOf } from './request-path.js';

const URLS = [
  'http://127.0.0.1:8080/mcp',
  'http://localhost/mcp?x=1',
  'http://localhost/mcp#frag',
  'http://localhost/mcp?x=/a#b?c',
  'http://localhost/a/../mcp',
  'http://localhost/%2e%2e/mcp',
  'http://LOCALHOST:80/MCP/',
  'http://[::1]:3000/healthz',
  'http://user:p%2Fw@example.com/sse?sessionId=1',
  'https://example.com',
  'http://localhost//mcp',
  'http://localhost/a b"<>`{}',
  'http://localhost/\\mcp',
];

const at = (url: string): Request => ({ url }) as Request;

test('pathOf reads the pathname exactly as new URL does, from a serialized URL (what Request.url is)', () => {
  for (const url of URLS) {
    const href = new URL(url).href;
    assert.equal(pathOf(at(href)), new URL(href).pathname, url);
  }
  assert.equal(pathOf(new Request('http://localhost:3000/mcp?a=1')), '/mcp');
});

test('pathOf reads the node server\'s unparsed URLs (plain host, a path without dot segments or escapes) as new URL does', () => {
  for (const url of ['http://127.0.0.1:9/mcp', 'http://localhost:1/mcp?sessionId=a/b', 'http://localhost:1/sse#x', 'http://localhost:1/A@[]~!$&=:;,']) {
    assert.equal(pathOf(at(url)), new URL(url).pathname, url);
  }
});

test('pathOf parses a URL of another scheme in full', () => {
  assert.equal(pathOf(at('ftp://host/a/b?c')), '/a/b');
});
