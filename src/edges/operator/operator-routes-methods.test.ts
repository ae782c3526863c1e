/** @module The operator app's answers to a wrong method (405 with Allow, HEAD included), odd paths, a failing desk and /console/. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { LogLevel } from '../../core/log.js';
import { loggerFrom } from '../../core/log.js';
import { createOperatorRoutes } from './operator-routes.js';
import { FakeOperatorDesk } from './testing/fake-desk.js';

const TOKEN = 'sb-op-methods-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

function setup() {
  const desk = new FakeOperatorDesk();
  const logs: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
  const routes = createOperatorRoutes({ desk, token: TOKEN, logger: loggerFrom((level, message, fields) => logs.push({ level, message, fields })) });
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const response = await routes.handle(new Request(`http://127.0.0.1:3939${path}`, init));
    assert.ok(response, `${path} should be an operator path`);
    return response;
  };
  const get = (path: string, headers: Record<string, string> = AUTH) => call(path, { headers });
  return { desk, logs, call, get };
}

async function errorOf(response: Response): Promise<{ code: string; message: string; field?: string }> {
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await response.json()) as { error: { code: string; message: string; field?: string } };
  return body.error;
}

describe('operator routes: methods and failures', () => {
  const wrong: [string, string, string][] = [
    ['GET', '/api/questions/q-1/answer', 'POST'],
    ['DELETE', '/api/questions', 'GET'],
    ['POST', '/api/questions/events', 'GET'],
    ['PUT', '/api/questions/q-1', 'GET'],
    ['POST', '/api/openapi.json', 'GET'],
    ['POST', '/console', 'GET'],
    ['HEAD', '/api/questions', 'GET'],
    ['HEAD', '/console/app.js', 'GET'],
    ['OPTIONS', '/api/runs/r-1', 'GET'],
  ];
  for (const [method, path, allow] of wrong) {
    it(`answers ${method} ${path} with 405 and Allow: ${allow}`, async () => {
      const { call } = setup();
      const response = await call(path, { method, headers: AUTH });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), allow);
      // A HEAD answer has no body (none goes on the wire for HEAD anyway).
      if (method === 'HEAD') assert.equal(response.body, null);
      else assert.equal((await errorOf(response)).code, 'METHOD_NOT_ALLOWED');
    });
  }

  it('answers 500 INTERNAL with a generic message when the desk throws, and logs the failure', async () => {
    const { desk, get, logs } = setup();
    desk.get = async () => {
      throw new Error('database is locked');
    };
    const response = await get('/api/questions/q-1');
    assert.equal(response.status, 500);
    const error = await errorOf(response);
    assert.equal(error.code, 'INTERNAL');
    assert.doesNotMatch(error.message, /database/);
    assert.ok(logs.some((line) => line.level === 'error' && line.fields?.error === 'database is locked'));
  });

  it('redirects /console/ to /console', async () => {
    const { get } = setup();
    const response = await get('/console/', {});
    assert.equal(response.status, 308);
    assert.equal(response.headers.get('location'), '/console');
  });
});

describe('operator routes: paths as sent', () => {
  it('route on the path as sent: an encoded letter is not the letter, an encoded slash stays in its segment', async () => {
    const { desk, get } = setup();
    assert.equal((await errorOf(await get('/api/%71uestions'))).code, 'NOT_FOUND');
    desk.add({ id: 'a/b' });
    assert.equal((await get('/api/questions/a%2Fb')).status, 200);
  });

  it('answer 404 NOT_FOUND to a path that does not percent-decode, after the token check', async () => {
    const { get } = setup();
    assert.equal((await get('/api/questions/%ZZ', {})).status, 401);
    assert.equal((await errorOf(await get('/api/questions/%ZZ'))).code, 'NOT_FOUND');
    assert.equal((await errorOf(await get('/console/%ZZ', {}))).code, 'NOT_FOUND');
  });

  it('refuse HEAD on the event stream before it opens: no listener is left on the desk', async () => {
    const { desk, call } = setup();
    const response = await call('/api/questions/events', { method: 'HEAD', headers: AUTH });
    assert.equal(response.status, 405);
    assert.equal(desk.listenerCount, 0);
  });
});
