/** @module The OpenAPI document: the committed copy is what the app generates, it is structurally sound, and it lists exactly the routes the app serves. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { makeRun } from '../../store/testing/run-fixtures.js';
import { questionViewSchema, runSchema, runSummarySchema, stepSchema } from './api-schemas.js';
import { OPERATOR_ERRORS } from './operator-errors.js';
import { createOperatorRoutes } from './operator-routes.js';
import { toQuestionView } from './question-view.js';
import { OPERATOR_ROUTES } from './route-table.js';
import { FakeConfigControl } from './testing/fake-config.js';
import { FAKE_SIGN_IN } from './testing/fake-sign-in.js';
import { FakeOperatorDesk } from './testing/fake-desk.js';
import { toRunSummary, toRunView } from './run-view.js';

type Json = Record<string, unknown>;

const COMMITTED = new URL('../../../docs/openapi.json', import.meta.url);
const generated = createOperatorRoutes({ desk: new FakeOperatorDesk(), token: 'doc-token' }).openApiText();
const doc = JSON.parse(generated) as Json;
const paths = doc.paths as Record<string, Record<string, Json>>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations(): { method: string; path: string; op: Json }[] {
  return Object.entries(paths).flatMap(([path, item]) => Object.entries(item).filter(([method]) => METHODS.includes(method)).map(([method, op]) => ({ method, path, op })));
}

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

function resolve(pointer: string): unknown {
  assert.ok(pointer.startsWith('#/'), `${pointer} is local`);
  return pointer
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Json)[key] : undefined), doc);
}

describe('OpenAPI document', () => {
  it('docs/openapi.json is what the app generates (run `npm run gen:openapi` after changing a route or schema)', () => {
    assert.equal(readFileSync(COMMITTED, 'utf8'), generated);
  });

  it('is a structurally valid OpenAPI 3.1 document', () => {
    assert.equal(doc.openapi, '3.1.0');
    const info = doc.info as Json;
    assert.equal(typeof info.title, 'string');
    assert.equal(typeof info.version, 'string');
    const declaredTags = new Set((doc.tags as { name: string }[]).map((t) => t.name));
    const schemes = (doc.components as { securitySchemes: Json }).securitySchemes;
    const ids = new Set<string>();
    for (const { method, path, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.match(path, /^\/[A-Za-z0-9/{}._-]*$/, where);
      assert.equal(typeof op.operationId, 'string', where);
      assert.ok(!ids.has(op.operationId as string), `${where}: operationId is unique`);
      ids.add(op.operationId as string);
      for (const tag of op.tags as string[]) assert.ok(declaredTags.has(tag), `${where}: tag ${tag} is declared`);
      for (const requirement of op.security as Json[]) for (const name of Object.keys(requirement)) assert.ok(name in schemes, `${where}: scheme ${name}`);
      const responses = op.responses as Record<string, Json>;
      assert.ok(Object.keys(responses).length > 0, where);
      for (const [status, response] of Object.entries(responses)) {
        assert.match(status, /^[1-5]\d\d$/, where);
        assert.equal(typeof response.description, 'string', `${where} ${status}`);
        for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) assert.equal(typeof media.schema, 'object', `${where} ${status}`);
      }
      const parameters = (op.parameters ?? []) as Json[];
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      assert.deepEqual(parameters.filter((p) => p.in === 'path').map((p) => p.name), templated, `${where}: every path parameter is declared`);
      for (const parameter of parameters) {
        assert.ok(['path', 'query', 'header', 'cookie'].includes(parameter.in as string), where);
        assert.equal(typeof parameter.schema, 'object', `${where} ${String(parameter.name)}`);
        if (parameter.in === 'path') assert.equal(parameter.required, true, where);
      }
      if (op.requestBody !== undefined) assert.ok(typeof (op.requestBody as Json).content === 'object', where);
    }
    for (const pointer of refsIn(doc)) assert.ok(resolve(pointer) !== undefined, `${pointer} resolves`);
    for (const [name, schema] of Object.entries((doc.components as { schemas: Record<string, Json> }).schemas)) {
      assert.ok(schema.type === 'object' || Array.isArray(schema.oneOf), `${name} is a schema`);
      assert.equal('$schema' in schema || '$id' in schema, false, `${name} carries no dialect or id of its own`);
    }
  });

  it('lists exactly the routes of the table, and names only catalogue errors', () => {
    assert.deepEqual(
      operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort(),
      OPERATOR_ROUTES.map((route) => `${route.method.toUpperCase()} ${route.path}`).sort(),
    );
    const codes = Object.keys(OPERATOR_ERRORS);
    for (const { op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Record<string, { description: string }>)) {
        if (/^[23]/.test(status)) continue;
        const named = [...response.description.matchAll(/\b([A-Z][A-Z_]+):/g)].map((m) => m[1] ?? '');
        assert.ok(named.length > 0 && named.every((code) => codes.includes(code) && String(OPERATOR_ERRORS[code as keyof typeof OPERATOR_ERRORS].status) === status), response.description);
      }
    }
  });

  it('every documented operation is served by the app (it registers the same routes)', async () => {
    const desk = new FakeOperatorDesk();
    const question = desk.add();
    const runs = new MemoryRunStore();
    const run = makeRun();
    await runs.create(run);
    const routes = createOperatorRoutes({ desk, runs, token: 'doc-token', signIn: FAKE_SIGN_IN, config: new FakeConfigControl() });
    for (const { method, path, op } of operations()) {
      const url = `http://127.0.0.1${path.replace('{id}', path.startsWith('/api/runs/') ? run.id : question.id).replace('{asset}', 'console.css')}`;
      const init: RequestInit = { method: method.toUpperCase(), headers: { authorization: 'Bearer doc-token', 'content-type': 'application/json' } };
      if (op.requestBody !== undefined) init.body = '{"action":"cancel"}';
      const response = await routes.handle(new Request(url, init));
      assert.equal(String(response?.status), Object.keys(op.responses as object)[0], `${method} ${path}`);
      await response?.body?.cancel();
    }
    routes.close();
  });

  it('is served at /api/openapi.json, to a holder of the token', async () => {
    const routes = createOperatorRoutes({ desk: new FakeOperatorDesk(), token: 'doc-token' });
    const response = await routes.handle(new Request('http://127.0.0.1/api/openapi.json', { headers: { authorization: 'Bearer doc-token' } }));
    assert.equal(response?.status, 200);
    assert.equal(await response?.text(), readFileSync(COMMITTED, 'utf8'));
  });

  it('documents the serialiser\'s output exactly (no field the schema lacks)', () => {
    const desk = new FakeOperatorDesk();
    const record = desk.add({
      hostParams: { message: 'm' },
      origin: { upstream: 'u', tool: 't', hostSessionId: 'h', principal: 'p', hostRevision: '2025-06-18' },
      audienceReason: 'consent',
      answer: { action: 'accept', content: { a: 1 } },
      answeredBy: { kind: 'operator', name: 'n' },
      settledAt: '2025-06-01T12:00:09.000Z',
      state: 'answered',
    });
    assert.deepEqual(questionViewSchema.strict().parse(toQuestionView(record)), toQuestionView(record));
  });

  it('documents the run serialisers\' output exactly (no field the schemas lack)', () => {
    const run = { ...makeRun(), principal: 'Ada <ada> (https://id.example)', state: 'completed' as const, summary: 'done', finishedAt: '2026-03-01T09:01:00.000Z' };
    run.steps[2] = { ...run.steps[2]!, reason: 'retried', finishedAt: '2026-03-01T09:01:00.000Z' };
    const strictRun = runSchema.extend({ steps: stepSchema.strict().array() }).strict();
    assert.deepEqual(strictRun.parse(toRunView(run)), toRunView(run));
    const summary = toRunSummary(run);
    assert.deepEqual(runSummarySchema.strict().parse(summary), summary);
    assert.equal(summary.durationMs, 60_000);
    assert.deepEqual(summary.stepStates, { completed: 2, running: 1, pending: 1 });
    assert.equal(summary.principal, 'Ada <ada> (https://id.example)', 'the run names who called it');
  });
});
