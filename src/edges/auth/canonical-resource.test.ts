/** @module The canonical resource URI: case, default ports, prefixes, slashes, fragments. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { canonicalResource, resourceSpellings } from './canonical-resource.js';

test('lowercases scheme and host, drops the default port, keeps any other', () => {
  assert.equal(canonicalResource('HTTPS://MCP.Example.COM'), 'https://mcp.example.com/mcp');
  assert.equal(canonicalResource('https://mcp.example.com:443'), 'https://mcp.example.com/mcp');
  assert.equal(canonicalResource('http://127.0.0.1:80/'), 'http://127.0.0.1/mcp');
  assert.equal(canonicalResource('http://127.0.0.1:8080'), 'http://127.0.0.1:8080/mcp');
  assert.equal(canonicalResource('https://mcp.example.com:80'), 'https://mcp.example.com:80/mcp');
  assert.equal(canonicalResource('http://[::1]:3000'), 'http://[::1]:3000/mcp');
});

test('keeps a base path prefix and its case, drops trailing slashes, queries and fragments', () => {
  assert.equal(canonicalResource('https://h.example/Switchboard/'), 'https://h.example/Switchboard/mcp');
  assert.equal(canonicalResource('https://h.example/', 'mcp/'), 'https://h.example/mcp');
  assert.equal(canonicalResource('https://h.example/?x=1#frag'), 'https://h.example/mcp');
});

test('the root path keeps its one slash', () => {
  assert.equal(canonicalResource('https://h.example', '/'), 'https://h.example/');
  assert.equal(canonicalResource('https://h.example//', ''), 'https://h.example/');
});

test('refuses what is not an http(s) URL', () => {
  assert.throws(() => canonicalResource('ftp://h.example'), /http or https/);
  assert.throws(() => canonicalResource('not a url'));
});

test('a resource is spelled with and without one trailing slash', () => {
  assert.deepEqual(resourceSpellings('https://h/mcp'), ['https://h/mcp', 'https://h/mcp/']);
  assert.deepEqual(resourceSpellings('https://h/'), ['https://h/', 'https://h']);
});
