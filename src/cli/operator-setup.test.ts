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
import { killHard, spawnInstance } from '../store/postgres/testing/spawn-instance.js';
import { eventually } from '../core/testing/deadlines.js';
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

/** A config on PostgreSQL schema `schema` as gateway instance `id`. */
function pgConfig(schema: string, id: string, options: { deadAfter?: string } = {}) {
  const url = new URL(requireTestPgUrl());
  const cluster = `cluster:\n  id: ${id}\n${options.deadAfter ? `  deadAfter: ${options.deadAfter}\n` : ''}`;
  const text = `upstreams:\n  desk:\n    command: node\nconsole:\n  token: ${TOKEN}\nstore:\n  type: postgres\n  url: "${url.toString()}"\n  schema: ${schema}\n  poolSize: 2\n${cluster}`;
  return parseConfigText(text, join(dir, 'switchboard.yaml'), { env: {} });
}

test('with the PostgreSQL store, a gateway killed with SIGKILL is found dead by another: its open questions and running runs are abandoned, naming it', { skip: pgSkipReason ?? false }, async () => {
  const { schema, dispose } = freshSchema();
  const survivor = await setUpOperator(pgConfig(schema, 'gw-survivor', { deadAfter: '300ms' }), { env: {}, listen, logger: silentLogger });
  // The doomed instance in a process of its own, with a question and a run it left open.
  const doomed = await spawnInstance(requireTestPgUrl(), schema, 'gw-doomed', 300);
  try {
    const writer = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema, owner: 'gw-doomed' });
    const open = makeQuestion();
    const run = makeRun();
    await writer.create(open, { actor: 'gateway', action: 'created' });
    await writer.runs.create(run);
    await writer.close();
    await killHard(doomed);
    await eventually(async () => (await survivor.desk.get(open.id))?.question.state === 'abandoned', 'the survivor abandons the dead instance\'s question');
    const trail = (await survivor.desk.get(open.id))?.audit ?? [];
    assert.match(JSON.stringify(trail.at(-1)), /gateway instance gw-doomed died/);
    await eventually(async () => (await survivor.runs.get(run.id))?.state === 'failed', 'and its run');
  } finally {
    await killHard(doomed);
    await survivor.close();
    await dispose();
  }
});

test('with the PostgreSQL store, questions and runs live in its schema; what this instance left open is settled at start, another instance\'s is not', { skip: pgSkipReason ?? false }, async () => {
  const { schema, dispose } = freshSchema();
  const earlier = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema, owner: 'gw-1' });
  const other = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema, owner: 'gw-2' });
  const left = makeRun();
  const othersRun = makeRun();
  const open = makeQuestion();
  const othersOpen = makeQuestion();
  await earlier.runs.create(left);
  await other.runs.create(othersRun);
  await earlier.create(open, { actor: 'gateway', action: 'created' });
  await other.create(othersOpen, { actor: 'gateway', action: 'created' });
  await earlier.close();
  await other.close();

  const setup = await setUpOperator(pgConfig(schema, 'gw-1'), { env: {}, listen, logger: silentLogger });
  try {
    assert.equal((await setup.runs.get(left.id))?.state, 'failed');
    assert.equal((await setup.desk.get(open.id))?.question.state, 'abandoned', 'its own, from its previous run');
    assert.equal((await setup.desk.get(othersOpen.id))?.question.state, 'pending', 'instance gw-2\'s question is gw-2\'s to settle');
    assert.equal((await setup.runs.get(othersRun.id))?.state, 'running', 'and so is its run');
    const health = await setup.healthDetails();
    assert.deepEqual([health.instance, (health.store as { type: string }).type], ['gw-1', 'postgres']);
    assert.equal(JSON.stringify(health).includes('switchboard-test'), false, 'never the password');
    assert.deepEqual((health.instances as { id: string; state: string }[]).map((i) => [i.id, i.state]), [['gw-1', 'up']]);
    // A second live gateway cannot take the same id.
    await assert.rejects(setUpOperator(pgConfig(schema, 'gw-1'), { env: {}, listen, logger: silentLogger }), /instance id gw-1 is held by a live gateway/);
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
