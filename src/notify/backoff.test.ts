/** @module Tests of the retry schedule: which answers are retried, exponential backoff with jitter, Retry-After honoured within bounds. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS, parseRetryAfter, retryDelayMs, verdictOf } from './backoff.js';

test('2xx is sent; 5xx, 429 and 408 are retried; any other status (4xx, a redirect) is given up', () => {
  assert.equal(verdictOf(200), 'sent');
  assert.equal(verdictOf(204), 'sent');
  for (const status of [500, 502, 503, 504, 429, 408]) assert.equal(verdictOf(status), 'retry', String(status));
  for (const status of [400, 401, 403, 404, 410, 413, 301, 302]) assert.equal(verdictOf(status), 'give-up', String(status));
});

test('exponential from 1 s, capped at 60 s, with jitter between half and all of it', () => {
  assert.equal(retryDelayMs(1, () => 1), 1000);
  assert.equal(retryDelayMs(2, () => 1), 2000);
  assert.equal(retryDelayMs(3, () => 1), 4000);
  assert.equal(retryDelayMs(1, () => 0), 500);
  assert.equal(retryDelayMs(20, () => 1), MAX_BACKOFF_MS);
  assert.equal(retryDelayMs(1000, () => 0.5), MAX_BACKOFF_MS * 0.75);
});

test('Retry-After wins when longer, within 10 minutes', () => {
  assert.equal(retryDelayMs(1, () => 1, 30_000), 30_000);
  assert.equal(retryDelayMs(3, () => 1, 100), 4000);
  assert.equal(retryDelayMs(1, () => 1, 3_600_000), MAX_RETRY_AFTER_MS);
});

test('Retry-After as seconds or an HTTP date; anything else is ignored', () => {
  const now = Date.parse('2026-03-01T09:00:00.000Z');
  assert.equal(parseRetryAfter('120', now), 120_000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('Sun, 01 Mar 2026 09:00:30 GMT', now), 30_000);
  assert.equal(parseRetryAfter('Sun, 01 Mar 2026 08:00:00 GMT', now), 0);
  for (const bad of [null, '', '-5', '1.5', 'soon', '9'.repeat(400)]) assert.equal(parseRetryAfter(bad, now), undefined, String(bad));
});
