/** @module Tests of one delivery attempt against a real HTTP receiver on loopback: what is sent, and how each answer is read. */

import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import { closedPort } from '../core/testing/closed-port.js';
import { startReceiver } from './testing/receiver.js';
import type { Receiver } from './testing/receiver.js';
import { postWebhook } from './webhook-post.js';

const NOW = () => Date.parse('2026-03-01T09:00:00.000Z');
const receivers: Receiver[] = [];
after(() => Promise.all(receivers.map((receiver) => receiver.close())));

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

const request = (url: string, overrides: Partial<Parameters<typeof postWebhook>[0]> = {}) => ({
  url,
  headers: { 'content-type': 'application/json', 'x-switchboard-event': 'question.waiting' },
  body: '{"id":"evt_1"}',
  timeoutMs: 2000,
  ...overrides,
});

test('a 2xx is sent; the receiver gets the body and the headers as given, by POST', async () => {
  const hook = await receiver(() => ({ status: 204 }));
  const result = await postWebhook(request(`${hook.url}/in/abc?key=k`), { now: NOW });
  assert.deepEqual(result, { outcome: 'sent', status: 204 });
  assert.equal(hook.received.length, 1);
  assert.equal(hook.received[0]?.method, 'POST');
  assert.equal(hook.received[0]?.path, '/in/abc?key=k');
  assert.equal(hook.received[0]?.body, '{"id":"evt_1"}');
  assert.equal(hook.received[0]?.headers['x-switchboard-event'], 'question.waiting');
  assert.equal(hook.received[0]?.headers['content-type'], 'application/json');
});

test('5xx and 429 are to be retried (Retry-After read), with the start of the body in the error; other 4xx are given up', async () => {
  const hook = await receiver((index) =>
    [
      { status: 500, body: 'boom\nstack trace' },
      { status: 429, headers: { 'retry-after': '7' }, body: 'slow down' },
      { status: 404, body: 'no_service' },
      { status: 503, body: 'x'.repeat(10_000) },
    ][index] ?? { status: 200 },
  );
  assert.deepEqual(await postWebhook(request(hook.url), { now: NOW }), { outcome: 'retry', status: 500, error: 'HTTP 500: boom stack trace' });
  assert.deepEqual(await postWebhook(request(hook.url), { now: NOW }), { outcome: 'retry', status: 429, error: 'HTTP 429: slow down', retryAfterMs: 7000 });
  assert.deepEqual(await postWebhook(request(hook.url), { now: NOW }), { outcome: 'give-up', status: 404, error: 'HTTP 404: no_service' });
  const long = await postWebhook(request(hook.url), { now: NOW });
  assert.ok(long.outcome === 'retry' && long.error.length <= 220, 'retried; the error quotes at most 200 characters of the body');
});

test('a redirect is not followed: given up, the next location never asked', async () => {
  const hook = await receiver((index) => (index === 0 ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 }));
  const result = await postWebhook(request(hook.url), { now: NOW });
  assert.deepEqual(result, { outcome: 'give-up', status: 302, error: 'HTTP 302: redirects are not followed' });
  assert.equal(hook.received.length, 1);
});

test('a receiver slower than the timeout, and a refused connection, are to be retried; the error never shows the URL\'s path or query', async () => {
  const slow = await receiver(() => ({ status: 200, delayMs: 2000 }));
  const timedOut = await postWebhook(request(`${slow.url}/hook/SECRET-PATH?token=SECRET-QUERY`, { timeoutMs: 100 }), { now: NOW });
  assert.deepEqual(timedOut, { outcome: 'retry', error: 'timed out after 100 ms' });
  const port = await closedPort();
  const refused = await postWebhook(request(`http://127.0.0.1:${port}/hook/SECRET-PATH?token=SECRET-QUERY`), { now: NOW });
  assert.equal(refused.outcome, 'retry');
  assert.ok(refused.outcome === 'retry' && /ECONNREFUSED/.test(refused.error), JSON.stringify(refused));
  assert.doesNotMatch(JSON.stringify(refused), /SECRET/);
});

test('an attempt the caller aborts (shutdown) ends at once as given up', async () => {
  const slow = await receiver(() => ({ status: 200, delayMs: 2000 }));
  const controller = new AbortController();
  const pending = postWebhook(request(slow.url), { now: NOW, signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  assert.deepEqual(await pending, { outcome: 'give-up', error: 'the gateway stopped before the receiver answered' });
});
