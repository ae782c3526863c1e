/** @module What `serve` composes for operators, as far as the store goes: the store the config names (SQLite, PostgreSQL, memory), runs beside the questions, what was left open settled at start, and /api/runs served. */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { parseConfigText } from '../config/load.js';
import { silentLogger } from '../core/log.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { openPostgresQuestionStore } from '../store/postgres/pg-question-store.js';
import { freshSchema, pgSkipReason, requireTestPgUrl } from '../store/postgres/testing/pg-test-database.js';
import { makeQuestion } from '../store/testing/question-fixtures.js';
import { openSqliteQuestionStore } from '../store/sqlite/sqlite-question-store.js';
import { makeRun } from '../store/testing/run-fixtures.js';
import { setUpOperator } from './operator-setup.js';

const TOKEN = 'operator-setup-test-token-0123';
const dir = mkdtempSync(join(tmpdir(), 'switchboard-setup-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function config(store: string) {
  return parseConfigText(`upstreams:\n  desk:\n    command: node\nconsole:\n  token: ${TOKEN}\nstore:\n${store}\n`, join(dir, 'switchboard.yaml'), { env: {} });
}

const listen = { host: '127.0.0.1', port: 0 };

test('with the SQLite store, runs are kept in the questions\' file; a run left running is failed at start and served at /api/runs', async () => {
  const path = join(dir, 'data', 'switchboard.db');
  const earlier = await openSqliteQuestionStore({ path });
  const left = makeRun();
  await earlier.runs.create(left);
  await earlier.close();

  const setup = await setUpOperator(config(`  type: sqlite\n  path: ${path}`), { env: {}, listen, logger: silentLogger });
  try {
    const run = await setup.runs.get(left.id);
    assert.equal(run?.state, 'failed');
    assert.equal(run?.summary, 'the gateway stopped during the run');
    const [routes] = setup.routes;
    assert.ok(routes);
    const response = await routes.handle(new Request(`http://127.0.0.1/api/runs/${left.id}`, { headers: { authorization: `Bearer ${TOKEN}` } }));
    assert.equal(response?.status, 200);
    assert.equal(((await response?.json()) as { state: string }).state, 'failed');
  } finally {
    await setup.close();
  }
  await assert.rejects(setup.runs.list(), { code: 'closed' }, 'closed with the question store');
});

test('with the memory store, runs are kept in memory', async () => {
  const setup = await setUpOperator(config('  type: memory'), { env: {}, listen, logger: silentLogger });
  try {
    assert.ok(setup.runs instanceof MemoryRunStore);
    await setup.runs.create(makeRun());
    assert.equal((await setup.runs.list()).length, 1);
  } finally {
    await setup.close();
  }
});

test('with the PostgreSQL store, questions and runs live in its schema; what a previous run left open is settled at start', { skip: pgSkipReason ?? false }, async () => {
  const { schema, dispose } = freshSchema();
  const earlier = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema });
  const left = makeRun();
  const open = makeQuestion();
  await earlier.runs.create(left);
  await earlier.create(open, { actor: 'gateway', action: 'created' });
  await earlier.close();

  const setup = await setUpOperator(config(`  type: postgres\n  url: "${requireTestPgUrl()}"\n  schema: ${schema}\n  poolSize: 2`), { env: {}, listen, logger: silentLogger });
  try {
    assert.equal((await setup.runs.get(left.id))?.state, 'failed');
    assert.equal((await setup.desk.get(open.id))?.question.state, 'abandoned');
  } finally {
    await setup.close();
    await dispose();
  }
  await assert.rejects(setup.runs.list(), { code: 'closed' }, 'closed with the question store');
});

test('a PostgreSQL store that cannot be reached stops serve with one line naming it, without the password', async () => {
  const refused = config('  type: postgres\n  url: "postgres://gw:pw-S3cret@127.0.0.1:1/sb"');
  await assert.rejects(setUpOperator(refused, { env: {}, listen, logger: silentLogger }), (error: Error) => {
    assert.equal(error.name, 'CliError');
    assert.match(error.message, /^cannot open the question store \(PostgreSQL, schema public\): cannot connect to the PostgreSQL store postgres:\/\/gw@127\.0\.0\.1:1\/sb: connection refused/);
    assert.equal(error.message.includes('S3cret'), false);
    return true;
  });
});
