/** @module Tests of cache hints: reading with the spec's defaults, stamping, and merging across upstreams. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isCacheableMethod, mergeCacheHints, NO_CACHE, readCacheHints, withCacheHints } from './cache-hints.js';

test('hints are read with the spec defaults and checked', () => {
  const cases: [unknown, unknown][] = [
    [{ ttlMs: 60000, cacheScope: 'public' }, { ttlMs: 60000, cacheScope: 'public' }],
    [{}, { ttlMs: 0, cacheScope: 'private' }],
    [{ ttlMs: 5 }, { ttlMs: 5, cacheScope: 'private' }],
    [{ cacheScope: 'public' }, { ttlMs: 0, cacheScope: 'public' }],
    [{ ttlMs: -1, cacheScope: 'public' }, 'invalid'],
    [{ ttlMs: 1.5 }, 'invalid'],
    [{ ttlMs: '10' }, 'invalid'],
    [{ ttlMs: 2 ** 60 }, 'invalid'],
    [{ cacheScope: 'shared' }, 'invalid'],
    [{ cacheScope: 'PUBLIC' }, 'invalid'],
    [{ ttlMs: null }, 'invalid'],
    [{ cacheScope: null }, 'invalid'],
    [[], 'invalid'],
  ];
  for (const [result, expected] of cases) {
    const read = readCacheHints(result);
    assert.deepEqual(read.ok ? read.hints : 'invalid', expected, JSON.stringify(result));
  }
});

test('stamping replaces hints without touching the input', () => {
  const input = Object.freeze({ tools: [], ttlMs: 9, resultType: 'complete' });
  assert.deepEqual(withCacheHints(input, { ttlMs: 0, cacheScope: 'private' }), { tools: [], ttlMs: 0, resultType: 'complete', cacheScope: 'private' });
});

test('merged hints take the shortest life and the narrowest scope', () => {
  const cases: [{ ttlMs: number; cacheScope: 'public' | 'private' }[], unknown][] = [
    [[], NO_CACHE],
    [[{ ttlMs: 100, cacheScope: 'public' }], { ttlMs: 100, cacheScope: 'public' }],
    [[{ ttlMs: 100, cacheScope: 'public' }, { ttlMs: 30, cacheScope: 'public' }], { ttlMs: 30, cacheScope: 'public' }],
    [[{ ttlMs: 100, cacheScope: 'public' }, { ttlMs: 300, cacheScope: 'private' }], { ttlMs: 100, cacheScope: 'private' }],
  ];
  for (const [parts, expected] of cases) assert.deepEqual(mergeCacheHints(parts), expected, JSON.stringify(parts));
});

test('exactly the discover, list and read methods are cacheable', () => {
  const cacheable = ['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'];
  for (const method of cacheable) assert.ok(isCacheableMethod(method), method);
  for (const method of ['tools/call', 'prompts/get', 'completion/complete', 'subscriptions/listen']) assert.ok(!isCacheableMethod(method), method);
});
