/** @module GET /api/runs, GET /api/runs/{id} and the run link of GET /api/questions/{id}, against a memory run store and the fake desk. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { RunRecord } from '../../composite/run-record.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { finishRun, makeRun } from '../../store/testing/run-fixtures.js';
import type { RunSummaryView } from './api-schemas.js';
import { createOperatorRoutes } from './operator-routes.js';
import { FakeOperatorDesk } from './testing/fake-desk.js';

const TOKEN = 'sb-op-runs-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };

async function setup(withRuns = true) {
  const desk = new FakeOperatorDesk();
  const runs = new MemoryRunStore();
  const routes = createOperatorRoutes({ desk, token: TOKEN, ...(withRuns ? { runs } : {}) });
  const get = async (path: string, headers: Record<string, string> = AUTH): Promise<Response> => {
    const response = await routes.handle(new Request(`http://127.0.0.1:3939${path}`, { headers }));
    assert.ok(response, `${path} should be an operator path`);
    return response;
  };
  return { desk, runs, get };
}

async function errorOf(response: Response): Promise<{ code: string; message: string; field?: string }> {
  return ((await response.json()) as { error: { code: string; message: string; field?: string } }).error;
}

describe('GET /api/runs', () => {
  it('lists run summaries newest first: counts by step state, the questions asked, the duration once finished', async () => {
    const { runs, get } = await setup();
    const older = finishRun(makeRun({ startedAt: '2026-03-01T09:00:00.000Z' }), '2026-03-01T09:00:42.500Z');
    const newer = makeRun({ startedAt: '2026-03-01T10:00:00.000Z', composite: 'rollback' });
    await runs.create(older);
    await runs.create(newer);
    const response = await get('/api/runs');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = (await response.json()) as RunSummaryView[];
    assert.deepEqual(body.map((run) => run.id), [newer.id, older.id]);
    assert.deepEqual(body[1], {
      id: older.id,
      composite: 'safe_restart',
      hostSessionId: 'host-1',
      state: 'completed',
      startedAt: older.startedAt,
      steps: 4,
      stepStates: { completed: 4 },
      questionIds: [older.steps[1]!.questionId!],
      summary: 'RESTARTED payments-api under CHG-2291',
      finishedAt: '2026-03-01T09:00:42.500Z',
      durationMs: 42_500,
    });
    assert.equal(body[0]?.durationMs, undefined, 'a running run has no duration yet');
    assert.deepEqual(body[0]?.stepStates, { completed: 2, running: 1, pending: 1 });
    assert.equal('input' in (body[0] ?? {}), false, 'no details in the list');
  });

  it('filters by composite and state (repeatable or comma-separated) and pages with before and limit', async () => {
    const { runs, get } = await setup();
    const made: RunRecord[] = [];
    for (let i = 0; i < 5; i++) {
      const run = makeRun({ startedAt: `2026-03-01T09:0${i}:00.000Z`, composite: i < 3 ? 'safe_restart' : 'rollback' });
      made.push(run);
      await runs.create(run);
    }
    await runs.update(finishRun(made[1]!, '2026-03-01T09:30:00.000Z', 'failed'));
    await runs.update(finishRun(made[4]!, '2026-03-01T09:30:00.000Z'));
    const ids = async (query: string) => ((await (await get(`/api/runs?${query}`)).json()) as { id: string }[]).map((run) => run.id);
    assert.deepEqual(await ids('composite=rollback'), [made[4]!.id, made[3]!.id]);
    assert.deepEqual(await ids('state=failed,completed'), [made[4]!.id, made[1]!.id]);
    assert.deepEqual(await ids('state=failed&state=completed&composite=safe_restart'), [made[1]!.id]);
    assert.deepEqual(await ids('limit=2'), [made[4]!.id, made[3]!.id]);
    assert.deepEqual(await ids(`limit=2&before=${encodeURIComponent(made[3]!.startedAt)}`), [made[2]!.id, made[1]!.id]);
  });

  const badQueries: [string, string][] = [
    ['status=running', 'status'],
    ['state=paused', 'state.0'],
    ['state=', 'state'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['before=yesterday', 'before'],
    ['composite=', 'composite'],
    ['composite=a&composite=b', 'composite'],
    ['upstream=desk', 'upstream'],
  ];
  for (const [query, field] of badQueries) {
    it(`refuses ?${query} with 400 INVALID_QUERY naming ${field}`, async () => {
      const { get } = await setup();
      const response = await get(`/api/runs?${query}`);
      assert.equal(response.status, 400);
      const error = await errorOf(response);
      assert.equal(error.code, 'INVALID_QUERY');
      assert.equal(error.field, field);
    });
  }

  it('is an empty list when the gateway has no run store', async () => {
    const { get } = await setup(false);
    const response = await get('/api/runs');
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), []);
    assert.equal((await errorOf(await get('/api/runs/run-1'))).code, 'RUN_NOT_FOUND');
  });

  it('needs the token, like every API route', async () => {
    const { runs, get } = await setup();
    const run = makeRun();
    await runs.create(run);
    for (const path of ['/api/runs', `/api/runs/${run.id}`]) {
      const response = await get(path, { authorization: 'Bearer wrong' });
      assert.equal(response.status, 401, path);
      assert.equal((await errorOf(response)).code, 'UNAUTHORIZED');
    }
  });
});

describe('GET /api/runs/{id}', () => {
  it('returns the whole run: every step with its times, attempts, outcome, answer, output and question', async () => {
    const { runs, get } = await setup();
    const run = makeRun();
    await runs.create(run);
    const response = await get(`/api/runs/${encodeURIComponent(run.id)}`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), run);
  });

  it('answers 404 RUN_NOT_FOUND for an unknown id, NOT_FOUND for a sub-path, 405 for another method', async () => {
    const { get } = await setup();
    const missing = await get('/api/runs/run-404');
    assert.equal(missing.status, 404);
    assert.deepEqual(await errorOf(missing), { code: 'RUN_NOT_FOUND', message: 'No run "run-404"' });
    const nowhere = await get('/api/runs/run-404/steps');
    assert.equal((await errorOf(nowhere)).code, 'NOT_FOUND');
  });
});

describe('GET /api/questions/{id} and runs', () => {
  it('names the run and the step that asked the question, and nothing for a question no composite asked', async () => {
    const { desk, runs, get } = await setup();
    const asked = desk.add();
    const alone = desk.add();
    const run = makeRun();
    run.steps[1] = { ...run.steps[1]!, questionId: asked.id };
    await runs.create(run);
    const body = (await (await get(`/api/questions/${asked.id}`)).json()) as { question: { id: string }; runId?: string; runStepId?: string };
    assert.equal(body.question.id, asked.id);
    assert.equal(body.runId, run.id);
    assert.equal(body.runStepId, 'approve');
    const other = (await (await get(`/api/questions/${alone.id}`)).json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(other), ['question', 'audit', 'deliveries'], 'no run named');
  });
});
