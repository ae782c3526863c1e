/** @module Tests for the Host/Origin, Accept and Content-Type checks. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { acceptsEventStream, acceptsPostResponses, hostGuard, isAllowedHost, isAllowedOrigin, isJsonContentType, splitHost } from './request-guards.js';

describe('Host validation', () => {
  const cases: [host: string, allowed: string[], expected: boolean][] = [
    ['localhost', [], true],
    ['localhost:3000', [], true],
    ['LOCALHOST:3000', [], true],
    ['127.0.0.1:8080', [], true],
    ['[::1]:8080', [], true],
    ['[::1]', [], true],
    ['evil.example', [], false],
    ['localhost.evil.example', [], false],
    ['127.0.0.1.nip.io:80', [], false],
    ['', [], false],
    ['mcp.example.com', ['mcp.example.com'], true],
    ['mcp.example.com:8443', ['mcp.example.com'], true],
    ['mcp.example.com:8443', ['mcp.example.com:443'], false],
    ['mcp.example.com:443', ['mcp.example.com:443'], true],
  ];
  for (const [host, allowed, expected] of cases) {
    it(`${expected ? 'accepts' : 'refuses'} Host ${JSON.stringify(host)} with allowedHosts ${JSON.stringify(allowed)}`, () => {
      assert.equal(isAllowedHost(host, allowed), expected);
    });
  }

  it('a prepared guard answers every case as isAllowedHost does, the second time too (accepted values are remembered)', () => {
    for (const [host, allowed, expected] of cases) {
      const guard = hostGuard(allowed);
      assert.equal(guard(host), expected, host);
      assert.equal(guard(host), expected, `${host} again`);
    }
    const guard = hostGuard([]);
    for (let port = 1; port <= 100; port += 1) assert.equal(guard(`localhost:${port}`), true);
    assert.equal(guard('evil.example'), false);
    assert.equal(guard('localhost:100'), true);
  });

  it('splits bracketed IPv6 hosts and ports', () => {
    assert.deepEqual(splitHost('[::1]:99'), { hostname: '[::1]', port: '99' });
    assert.deepEqual(splitHost('Example.com:80'), { hostname: 'example.com', port: '80' });
    assert.deepEqual(splitHost('example.com'), { hostname: 'example.com', port: undefined });
  });
});

describe('Origin validation', () => {
  const cases: [origin: string, allowed: string[], expected: boolean][] = [
    ['http://localhost:5173', [], true],
    ['https://127.0.0.1', [], true],
    ['http://[::1]:3000', [], true],
    ['null', [], false],
    ['file://localhost', [], false],
    ['https://evil.example', [], false],
    ['https://app.example.com', ['https://app.example.com'], true],
    ['https://app.example.com', ['https://APP.example.com/'], true],
    ['https://app.example.com:8443', ['https://app.example.com'], false],
  ];
  for (const [origin, allowed, expected] of cases) {
    it(`${expected ? 'accepts' : 'refuses'} Origin ${origin} with allowedOrigins ${JSON.stringify(allowed)}`, () => {
      assert.equal(isAllowedOrigin(origin, allowed), expected);
    });
  }
});

describe('Accept and Content-Type', () => {
  it('POST needs both application/json and text/event-stream', () => {
    assert.equal(acceptsPostResponses('application/json, text/event-stream'), true);
    assert.equal(acceptsPostResponses('text/event-stream;q=0.9,application/json'), true);
    assert.equal(acceptsPostResponses('application/json'), false);
    assert.equal(acceptsPostResponses('*/*'), false);
    assert.equal(acceptsPostResponses(null), false);
  });

  it('POST: the same Accept value gets the same answer again, also after another value (the last one is remembered)', () => {
    for (const [accept, expected] of [
      ['application/json, text/event-stream', true],
      ['application/json, text/event-stream', true],
      ['application/json', false],
      ['application/json', false],
      ['application/json, text/event-stream', true],
      [null, false],
      ['text/event-stream, application/json', true],
    ] as const) {
      assert.equal(acceptsPostResponses(accept), expected, String(accept));
    }
  });

  it('GET needs text/event-stream', () => {
    assert.equal(acceptsEventStream('text/event-stream'), true);
    assert.equal(acceptsEventStream('application/json'), false);
  });

  it('Content-Type must be application/json, parameters allowed', () => {
    assert.equal(isJsonContentType('application/json'), true);
    assert.equal(isJsonContentType('Application/JSON; charset=utf-8'), true);
    assert.equal(isJsonContentType('application/jsonx'), false);
    assert.equal(isJsonContentType('text/plain'), false);
    assert.equal(isJsonContentType(null), false);
  });
});
