/** @module What `serve` composes for operators, as far as composite runs go: the run store beside the questions, runs left running failed at start, and /api/runs served. */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { parseConfigText } from '../config/load.js';
import { silentLogger } from '../core/log.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
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
