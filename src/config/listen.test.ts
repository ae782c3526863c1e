/** @module Tests of listen address parsing. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseListenAddress } from './listen.js';

describe('parseListenAddress', () => {
  const good: [string, string, number][] = [
    ['127.0.0.1:3939', '127.0.0.1', 3939],
    ['0.0.0.0:80', '0.0.0.0', 80],
    ['localhost:8080', 'localhost', 8080],
    ['gateway.internal:443', 'gateway.internal', 443],
    [':3939', '127.0.0.1', 3939],
    ['127.0.0.1:0', '127.0.0.1', 0],
    [':0', '127.0.0.1', 0],
    ['[::1]:3939', '::1', 3939],
    ['[::]:65535', '::', 65535],
    ['[fe80::1%eth0]:3939', 'fe80::1%eth0', 3939],
    ['[::ffff:127.0.0.1]:1', '::ffff:127.0.0.1', 1],
    ['  127.0.0.1:3939 ', '127.0.0.1', 3939],
  ];
  for (const [text, host, port] of good) {
    test(`${JSON.stringify(text)} -> ${host} port ${port}`, () => assert.deepEqual(parseListenAddress(text), { host, port }));
  }

  const bad: [string, string][] = [
    ['localhost', 'invalid listen address "localhost": no port (use HOST:PORT, [IPv6]:PORT or :PORT)'],
    ['', 'invalid listen address "": no port (use HOST:PORT, [IPv6]:PORT or :PORT)'],
    ['127.0.0.1:', 'invalid listen address "127.0.0.1:": port must be a number from 0 to 65535 (got "")'],
    ['127.0.0.1:65536', 'invalid listen address "127.0.0.1:65536": port must be a number from 0 to 65535 (got "65536")'],
    ['127.0.0.1:-1', 'invalid listen address "127.0.0.1:-1": port must be a number from 0 to 65535 (got "-1")'],
    ['127.0.0.1:http', 'invalid listen address "127.0.0.1:http": port must be a number from 0 to 65535 (got "http")'],
    ['::1:3939', 'invalid listen address "::1:3939": put an IPv6 host in brackets, e.g. [::1]:3939'],
    ['[::1]3939', 'invalid listen address "[::1]3939": no port after "]" (use HOST:PORT, [IPv6]:PORT or :PORT)'],
    ['[::1:3939', 'invalid listen address "[::1:3939": missing "]" after the IPv6 address (use HOST:PORT, [IPv6]:PORT or :PORT)'],
    ['[127.0.0.1]:80', 'invalid listen address "[127.0.0.1]:80": "127.0.0.1" is not an IPv6 address'],
    ['[zz::1]:80', 'invalid listen address "[zz::1]:80": "zz::1" is not an IPv6 address'],
    ['256.0.0.1:80', 'invalid listen address "256.0.0.1:80": "256.0.0.1" is not an IPv4 address'],
    ['bad_host:80', 'invalid listen address "bad_host:80": "bad_host" is not a host name or IP address'],
    ['http://localhost:80', 'invalid listen address "http://localhost:80": put an IPv6 host in brackets, e.g. [::1]:3939'],
  ];
  for (const [text, message] of bad) {
    test(`${JSON.stringify(text)} is rejected`, () => assert.throws(() => parseListenAddress(text), { name: 'Error', message }));
  }
});
