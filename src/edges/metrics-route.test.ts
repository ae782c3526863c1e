/** @module Tests of GET /metrics: only its path, only GET, only with the token, never echoing it, never cached. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createMetricsRoute } from './metrics-route.js';
import { MetricsRegistry } from '../observability/metrics.js';

const TOKEN = 'metrics-secret-0123456789';

function setup() {
  const registry = new MetricsRegistry();
  registry.counter({ name: 'hits_total', help: 'Hits.' }).inc({});
  return createMetricsRoute({ registry, token: TOKEN });
}

const get = (path: string, init: RequestInit = {}) => new Request(`http://127.0.0.1:3939${path}`, init);
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

test('GET /metrics with the token: the exposition, its content type, not cached', async () => {
  const response = await setup().handle(get('/metrics', bearer(TOKEN)));
  assert.ok(response);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.match(await response.text(), /^# HELP .*\n[^]*\nhits_total 1\n$/);
});

test('other paths are not this route\'s (a query string does not change the path)', async () => {
  const route = setup();
  for (const path of ['/', '/mcp', '/metrics/', '/metricsx', '/api/metrics']) assert.equal(await route.handle(get(path, bearer(TOKEN))), undefined, path);
  assert.equal((await route.handle(get('/metrics?x=1', bearer(TOKEN))))?.status, 200);
});

test('without the right token: 401 with a Bearer challenge, and neither token appears in the answer', async () => {
  const route = setup();
  const wrong = 'guess-me-please';
  const cases: RequestInit[] = [{}, bearer(wrong), bearer(`${TOKEN}x`), bearer(TOKEN.slice(0, -1)), { headers: { authorization: TOKEN } }, { headers: { authorization: `Basic ${TOKEN}` } }];
  for (const init of cases) {
    const response = await route.handle(get('/metrics', init));
    assert.equal(response?.status, 401, JSON.stringify(init));
    assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="switchboard"');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const headers: string[] = [];
    response.headers.forEach((value, name) => headers.push(`${name}: ${value}`));
    const text = `${headers.join('\n')}\n${await response.text()}`;
    assert.ok(!text.includes(TOKEN) && !text.includes(wrong), text);
    assert.doesNotMatch(text, /hits_total/);
  }
  assert.equal((await route.handle(get('/metrics', { headers: { authorization: `bearer   ${TOKEN} ` } })))?.status, 200, 'the scheme is case-insensitive');
});

test('other methods: 405 with Allow: GET once authorized; 401 before that', async () => {
  const route = setup();
  for (const method of ['POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']) {
    const response = await route.handle(get('/metrics', { method, ...bearer(TOKEN) }));
    assert.equal(response?.status, 405, method);
    assert.equal(response.headers.get('allow'), 'GET');
  }
  assert.equal((await route.handle(get('/metrics', { method: 'POST' })))?.status, 401);
});

test('a token that could never be sent is refused when the route is made', () => {
  const registry = new MetricsRegistry();
  assert.throws(() => createMetricsRoute({ registry, token: '' }), /metrics token must not be empty/);
  assert.throws(() => createMetricsRoute({ registry, token: 'a b' }), /white space/);
});
