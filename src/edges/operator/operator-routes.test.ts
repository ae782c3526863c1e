/** @module The operator REST API against a fake desk: every status, the token never echoed, filters passed through, every table route served. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { LogLevel } from '../../core/log.js';
import { loggerFrom } from '../../core/log.js';
import { MAX_ANSWER_BODY_BYTES } from './answer-request.js';
import { createOperatorRoutes } from './operator-routes.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { makeRun } from '../../store/testing/run-fixtures.js';
import { needsToken, OPERATOR_ROUTES } from './route-table.js';
import { FakeOperatorDesk } from './testing/fake-desk.js';
import { FakeConfigControl } from './testing/fake-config.js';
import { FAKE_SIGN_IN } from './testing/fake-sign-in.js';

const TOKEN = 'sb-op-0123456789abcdef-secret';
const BASE = 'http://127.0.0.1:3939';
const AUTH = { authorization: `Bearer ${TOKEN}` };

function setup(options: { maxJsonDepth?: number } = {}) {
  const desk = new FakeOperatorDesk();
  const config = new FakeConfigControl();
  const runs = new MemoryRunStore();
  const logs: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
  const routes = createOperatorRoutes({ desk, runs, token: TOKEN, signIn: FAKE_SIGN_IN, config, logger: loggerFrom((level, message, fields) => logs.push({ level, message, fields })), ...options });
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const response = await routes.handle(new Request(`${BASE}${path}`, init));
    assert.ok(response, `${path} should be an operator path`);
    return response;
  };
  const get = (path: string, headers: Record<string, string> = AUTH) => call(path, { headers });
  const answer = (id: string, body: unknown, headers: Record<string, string> = {}) =>
    call(`/api/questions/${id}/answer`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { desk, runs, config, routes, logs, call, get, answer };
}

async function errorOf(response: Response): Promise<{ code: string; message: string; field?: string }> {
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await response.json()) as { error: { code: string; message: string; field?: string } };
  return body.error;
}

describe('operator routes: what they serve', () => {
  it('leave every other path to the rest of the edge', async () => {
    const { routes } = setup();
    for (const path of ['/mcp', '/healthz', '/apis', '/consoles', '/', '/metrics']) {
      assert.equal(await routes.handle(new Request(`${BASE}${path}`)), undefined, path);
    }
  });

  it('take every path under /api/, known or not: 401 without the token, 404 with it for an unknown one', async () => {
    const { get } = setup();
    for (const path of ['/api', '/api/', '/api/other', '/api/questionsx', '/api/runs-archive/1']) {
      const anonymous = await get(path, {});
      assert.equal(anonymous.status, 401, path);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="switchboard"', path);
      assert.equal((await errorOf(anonymous)).code, 'UNAUTHORIZED', path);
      const operator = await get(path);
      assert.equal(operator.status, 404, path);
      assert.equal((await errorOf(operator)).code, 'NOT_FOUND', path);
    }
  });

  it('serve every route of the table (the OpenAPI document is generated from the same table)', async () => {
    const { desk, runs, call } = setup();
    const question = desk.add();
    const run = makeRun();
    await runs.create(run);
    const samples: Record<string, RequestInit & { path?: string }> = {
      answerQuestion: { headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"action":"decline"}' },
    };
    for (const route of OPERATOR_ROUTES) {
      const path = route.path.replace('{id}', route.path.startsWith('/api/runs/') ? run.id : question.id).replace('{asset}', 'app.js');
      const init = samples[route.operationId] ?? { headers: AUTH };
      const response = await call(path, { method: route.method.toUpperCase(), ...init });
      assert.equal(String(response.status), Object.keys(route.responses)[0], `${route.method} ${path}`);
      await response.body?.cancel();
    }
  });

  it('GET /api/config shows the version in force; POST /api/config/reload applies, or refuses with CONFIG_INVALID and the version kept', async () => {
    const { config, call, get } = setup();
    const shown = await get('/api/config');
    assert.equal(shown.status, 200);
    assert.deepEqual(await shown.json(), config.current);
    const applied = await call('/api/config/reload', { method: 'POST', headers: AUTH });
    assert.equal(applied.status, 200);
    const body = (await applied.json()) as { ok: boolean; config: { generation: number }; upstreams: { added: string[] } };
    assert.equal(body.ok, true);
    assert.equal(body.config.generation, 2);
    assert.deepEqual(body.upstreams.added, ['two']);
    assert.equal(config.askedBy.length, 1, 'the reload knows which operator asked');

    config.refuse = 'switchboard.yaml:7: upstreams.one.sharing: must be shared or per-session';
    const refused = await call('/api/config/reload', { method: 'POST', headers: AUTH });
    assert.equal(refused.status, 422);
    const error = (await refused.json()) as { error: { code: string; message: string }; config: { generation: number } };
    assert.equal(error.error.code, 'CONFIG_INVALID');
    assert.equal(error.error.message, config.refuse);
    assert.equal(error.config.generation, 2, 'the config in force comes back');
    assert.equal((await call('/api/config/reload', { method: 'POST' })).status, 401, 'an anonymous reload is refused');
    assert.equal((await call('/api/config', { method: 'POST', headers: AUTH })).status, 405);
  });
});

describe('operator routes: authentication', () => {
  it('answer 401 with WWW-Authenticate: Bearer without the right token, on every API route', async () => {
    const { desk, call } = setup();
    const question = desk.add();
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Bearer ${TOKEN.slice(0, -1)}` }];
    // Under /api/ (the console's sign-out is the sign-in's own, tested with it).
    for (const route of OPERATOR_ROUTES.filter((candidate) => needsToken(candidate) && candidate.path.startsWith('/api/'))) {
      for (const headers of attempts) {
        const response = await call(route.path.replace('{id}', question.id), { method: route.method.toUpperCase(), headers });
        assert.equal(response.status, 401, `${route.operationId} with ${JSON.stringify(headers)}`);
        assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/);
        const text = await response.text();
        assert.ok(!text.includes(TOKEN) && !text.includes('wrong'), 'nothing sent is echoed');
        assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, 'UNAUTHORIZED');
      }
    }
    assert.equal(desk.answers.length, 0);
    assert.deepEqual(desk.filters, []);
  });

  it('accept the scheme name in any case and surrounding blanks', async () => {
    const { get } = setup();
    assert.equal((await get('/api/questions', { authorization: `bearer  ${TOKEN} ` })).status, 200);
  });

  it('never put the token in a log line or an error body', async () => {
    const { desk, logs, get, answer, call } = setup();
    const question = desk.add();
    const bodies = [
      await (await get('/api/questions', { authorization: `Bearer ${TOKEN}-nope` })).text(),
      await (await get('/api/questions?x=1')).text(),
      await (await answer(question.id, '{')).text(),
      await (await answer('missing', { action: 'decline' })).text(),
      await (await call('/api/questions', { method: 'DELETE', headers: AUTH })).text(),
    ];
    desk.list = async () => {
      throw new Error(`boom ${TOKEN}`);
    };
    bodies.push(await (await get('/api/questions')).text());
    assert.ok(logs.length >= 3);
    for (const text of [...bodies, ...logs.map((line) => JSON.stringify(line))]) assert.ok(!text.includes(TOKEN.slice(6)), text);
  });

  it('refuse an empty configured token', () => {
    assert.throws(() => createOperatorRoutes({ desk: new FakeOperatorDesk(), token: '' }), /must not be empty/);
  });

  it('serve the console without a token (it holds no data)', async () => {
    const { get } = setup();
    assert.equal((await get('/console', {})).status, 200);
    assert.equal((await get('/console/app.js', {})).status, 200);
  });
});

describe('GET /api/questions', () => {
  it('lists questions with the one serialiser: origin flattened, params as asked', async () => {
    const { desk, get } = setup();
    const asked = desk.add({ origin: { upstream: 'desk', tool: 'restart_service', hostSessionId: 'h1', hostRevision: '2025-06-18' }, hostParams: { message: 'translated' } });
    const response = await get('/api/questions');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await response.json(), [
      {
        id: asked.id,
        state: 'delivered',
        method: 'elicitation/create',
        params: asked.params,
        hostParams: { message: 'translated' },
        upstream: 'desk',
        tool: 'restart_service',
        hostSessionId: 'h1',
        hostRevision: '2025-06-18',
        route: 'operator',
        audience: 'operator',
        deadline: asked.deadline,
        createdAt: asked.createdAt,
        updatedAt: asked.updatedAt,
      },
    ]);
  });

  it('passes every filter through to the desk (state repeatable or comma-separated)', async () => {
    const { desk, get } = setup();
    const response = await get('/api/questions?state=pending&state=answered,expired&upstream=desk&tool=restart_service&answeredBy=operator&method=sampling%2FcreateMessage&limit=5&before=2025-06-01T12:00:00Z');
    assert.equal(response.status, 200);
    assert.deepEqual(desk.filters, [
      { state: ['pending', 'answered', 'expired'], upstream: 'desk', tool: 'restart_service', answeredBy: 'operator', method: 'sampling/createMessage', limit: 5, before: '2025-06-01T12:00:00Z' },
    ]);
    await get('/api/questions');
    assert.deepEqual(desk.filters[1], {});
  });

  const badQueries: [string, string][] = [
    ['status=pending', 'status'],
    ['state=waiting', 'state.0'],
    ['state=', 'state'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=1.5', 'limit'],
    ['before=yesterday', 'before'],
    ['before=2025-06-01T12:00:00', 'before'],
    ['answeredBy=robot', 'answeredBy'],
    ['method=tools%2Fcall', 'method'],
    ['upstream=a&upstream=b', 'upstream'],
    ['tool=', 'tool'],
  ];
  for (const [query, field] of badQueries) {
    it(`refuses ?${query} with 400 INVALID_QUERY naming ${field}`, async () => {
      const { desk, get } = setup();
      const response = await get(`/api/questions?${query}`);
      assert.equal(response.status, 400);
      const error = await errorOf(response);
      assert.equal(error.code, 'INVALID_QUERY');
      assert.equal(error.field, field);
      assert.deepEqual(desk.filters, []);
    });
  }
});

describe('GET /api/questions/{id}', () => {
  it('returns the question and its audit trail', async () => {
    const { desk, get } = setup();
    const question = desk.add();
    desk.settle(question.id, 'expired');
    const response = await get(`/api/questions/${question.id}`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { question: { id: string; state: string }; audit: { action: string }[] };
    assert.equal(body.question.id, question.id);
    assert.equal(body.question.state, 'expired');
    assert.deepEqual(body.audit.map((entry) => entry.action), ['created', 'expired']);
  });

  it('answers 404 QUESTION_NOT_FOUND for an unknown id, and 404 NOT_FOUND for an unknown sub-path', async () => {
    const { get } = setup();
    const missing = await get('/api/questions/q-404');
    assert.equal(missing.status, 404);
    assert.equal((await errorOf(missing)).code, 'QUESTION_NOT_FOUND');
    const nowhere = await get('/api/questions/q-1/audit/extra');
    assert.equal(nowhere.status, 404);
    assert.equal((await errorOf(nowhere)).code, 'NOT_FOUND');
  });
});

describe('POST /api/questions/{id}/answer', () => {
  it('takes an accept with content, with the operator named by X-Switchboard-Operator', async () => {
    const { desk, answer, logs } = setup();
    const question = desk.add();
    const response = await answer(question.id, { action: 'accept', content: { confirm: true } }, { 'x-switchboard-operator': 'Ada Lovelace' });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { question: { state: string; answeredBy: unknown; answer: unknown } };
    assert.equal(body.question.state, 'answered');
    assert.deepEqual(body.question.answeredBy, { kind: 'operator', name: 'Ada Lovelace' });
    assert.deepEqual(desk.answers, [{ id: question.id, answer: { action: 'accept', content: { confirm: true } }, operator: 'Ada Lovelace' }]);
    assert.ok(logs.some((line) => line.message === 'operator answer' && line.fields?.outcome === 'taken'));
  });

  it('takes decline, cancel and a sampling result; the operator defaults to "operator" and is sanitised', async () => {
    const { desk, answer } = setup();
    const a = desk.add();
    const b = desk.add();
    const c = desk.add({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }], maxTokens: 100 } });
    const result = { role: 'assistant', content: { type: 'text', text: 'Done.' }, model: 'operator', stopReason: 'endTurn' };
    assert.equal((await answer(a.id, { action: 'decline' })).status, 200);
    assert.equal((await answer(b.id, { action: 'cancel' }, { 'x-switchboard-operator': '<b>eve</b>\u0007:admin' })).status, 200);
    assert.equal((await answer(c.id, { action: 'accept', result })).status, 200);
    assert.deepEqual(desk.answers, [
      { id: a.id, answer: { action: 'decline' }, operator: 'operator' },
      { id: b.id, answer: { action: 'cancel' }, operator: 'bevebadmin' },
      { id: c.id, answer: { action: 'accept', result }, operator: 'operator' },
    ]);
  });

  const badBodies: [string, unknown, string | undefined, string][] = [
    ['not JSON', '{"action":', undefined, 'INVALID_JSON'],
    ['not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), undefined, 'INVALID_JSON'],
    ['an array', [], 'action', 'INVALID_BODY'],
    ['no action', {}, 'action', 'INVALID_BODY'],
    ['an unknown action', { action: 'approve' }, 'action', 'INVALID_BODY'],
    ['content that is not an object', { action: 'accept', content: 'yes' }, 'content', 'INVALID_BODY'],
    ['an unknown key', { action: 'accept', content: {}, contents: {} }, 'contents', 'INVALID_BODY'],
    ['content on a decline', { action: 'decline', content: {} }, 'content', 'INVALID_BODY'],
    ['both content and result', { action: 'accept', content: {}, result: {} }, 'result', 'INVALID_BODY'],
  ];
  for (const [what, body, field, code] of badBodies) {
    it(`refuses ${what} with 400 ${code}${field ? ` naming ${field}` : ''}, without asking the desk`, async () => {
      const { desk, call } = setup();
      const question = desk.add();
      const response = await call(`/api/questions/${question.id}/answer`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: body instanceof Uint8Array ? new Uint8Array(body) : typeof body === 'string' ? body : JSON.stringify(body),
      });
      assert.equal(response.status, 400);
      const error = await errorOf(response);
      assert.equal(error.code, code);
      assert.equal(error.field, field);
      assert.equal(desk.answers.length, 0);
    });
  }

  it('passes the desk\'s invalid verdict on as 400 INVALID_ANSWER with its field; the question stays open', async () => {
    const { desk, answer } = setup();
    const question = desk.add();
    desk.validate = () => ({ reason: 'content.confirm: must be a boolean', field: 'content.confirm' });
    const response = await answer(question.id, { action: 'accept', content: { confirm: 'yes' } });
    assert.equal(response.status, 400);
    assert.deepEqual(await errorOf(response), { code: 'INVALID_ANSWER', message: 'content.confirm: must be a boolean', field: 'content.confirm' });
    assert.equal((await desk.get(question.id))?.question.state, 'delivered');
  });

  it('answers 404 for an unknown question and 409 ALREADY_SETTLED, with the record, for a settled one', async () => {
    const { desk, answer } = setup();
    const missing = await answer('q-nope', { action: 'decline' });
    assert.equal(missing.status, 404);
    assert.equal((await errorOf(missing)).code, 'QUESTION_NOT_FOUND');
    const question = desk.add();
    desk.settle(question.id, 'answered', { kind: 'host', sessionId: 'h1' });
    const late = await answer(question.id, { action: 'accept', content: { confirm: true } });
    assert.equal(late.status, 409);
    const body = (await late.json()) as { error: { code: string }; question: { state: string; answeredBy: unknown } };
    assert.equal(body.error.code, 'ALREADY_SETTLED');
    assert.equal(body.question.state, 'answered');
    assert.deepEqual(body.question.answeredBy, { kind: 'host', sessionId: 'h1' });
  });

  it('answers 413 above the cap, declared or streamed, without asking the desk', async () => {
    const { desk, answer, call } = setup();
    const question = desk.add();
    const big = JSON.stringify({ action: 'accept', content: { text: 'x'.repeat(MAX_ANSWER_BODY_BYTES) } });
    const declared = await answer(question.id, big);
    assert.equal(declared.status, 413);
    assert.equal((await errorOf(declared)).code, 'BODY_TOO_LARGE');
    const chunk = new TextEncoder().encode('x'.repeat(256 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await call(`/api/questions/${question.id}/answer`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.equal(desk.answers.length, 0);
    // Just under the cap is read (and then refused for its content by the desk's rules, not its size).
    const fits = JSON.stringify({ action: 'accept', content: { text: 'x'.repeat(MAX_ANSWER_BODY_BYTES - 64) } });
    assert.equal((await answer(question.id, fits)).status, 200);
  });

  it('answers 400 INVALID_BODY to JSON nested deeper than http.maxJsonDepth, without asking the desk', async () => {
    const { desk, answer } = setup({ maxJsonDepth: 2 });
    const question = desk.add();
    const deep = await answer(question.id, { action: 'accept', content: { a: { b: 'deep' } } });
    assert.equal(deep.status, 400);
    const error = await errorOf(deep);
    assert.equal(error.code, 'INVALID_BODY');
    assert.match(error.message, /deeper than 2 levels/);
    assert.equal(desk.answers.length, 0);
    const defaults = setup();
    const atDefault = defaults.desk.add();
    assert.equal((await defaults.answer(atDefault.id, { action: 'accept', content: { a: { b: 'deep' } } })).status, 200, 'the default limit (64) takes it');
    const past = `{"action":"accept","content":${'{"a":'.repeat(64)}1${'}'.repeat(64)}}`;
    assert.equal((await errorOf(await defaults.answer(atDefault.id, past))).code, 'INVALID_BODY');
  });

  it('answers 415 to a body that is not declared application/json', async () => {
    const { desk, answer, call } = setup();
    const question = desk.add();
    const plain = await answer(question.id, '{"action":"decline"}', { 'content-type': 'text/plain' });
    assert.equal(plain.status, 415);
    assert.equal((await errorOf(plain)).code, 'UNSUPPORTED_MEDIA_TYPE');
    const form = await answer(question.id, 'action=decline', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 415);
    const none = await call(`/api/questions/${question.id}/answer`, { method: 'POST', headers: AUTH, body: new Uint8Array([0x7b, 0x7d]) });
    assert.equal(none.status, 415);
    assert.equal((await answer(question.id, '{"action":"decline"}', { 'content-type': 'application/json; charset=utf-8' })).status, 200);
    assert.equal(desk.answers.length, 1);
  });
});
