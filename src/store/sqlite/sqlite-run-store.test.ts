/** @module The SQLite run store (the question store's `runs`) against the shared contract, and what is particular to a file: the upgrade in place, damage, closing. */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';

import Database from 'better-sqlite3';

import { encodeAudit } from '../audit-row.js';
import { QUESTION_COLUMNS, encodeQuestion } from '../question-row.js';
import { makeQuestion } from '../testing/question-fixtures.js';
import { runStoreContract } from '../testing/run-store-contract.js';
import { makeRun } from '../testing/run-fixtures.js';
import { MIGRATIONS, migrate } from './schema.js';
import { openSqliteQuestionStore } from './sqlite-question-store.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'switchboard-runs-'));
}

runStoreContract('sqlite', async () => {
  const dir = tempDir();
  return {
    open: async (options) => {
      const questions = await openSqliteQuestionStore({ ...options, path: join(dir, 'switchboard.db') });
      return { store: questions.runs, close: () => questions.close() };
    },
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function freshPath(): string {
  const dir = tempDir();
  dirs.push(dir);
  return join(dir, 'switchboard.db');
}

test('runs live in the questions\' file, on the same connection: same WAL and synchronous=NORMAL with the same WAL sync, closed with it', async () => {
  const path = freshPath();
  const store = await openSqliteQuestionStore({ path });
  const run = makeRun();
  await store.runs.create(run);
  const settings = store.settings();
  assert.equal(settings.journalMode, 'wal');
  assert.equal(settings.synchronous, 1);
  await store.close();
  await assert.rejects(store.runs.get(run.id), { name: 'RunStoreError', code: 'closed' });

  const reopened = await openSqliteQuestionStore({ path });
  try {
    assert.deepEqual(await reopened.runs.get(run.id), run);
    assert.deepEqual(await reopened.runs.findByQuestion(run.steps[1]!.questionId!), { run, stepId: 'approve' });
  } finally {
    await reopened.close();
  }
});

test('a store file of schema version 1 is upgraded in place: its questions and trails kept, runs added', async () => {
  const path = freshPath();
  // A file as the version-1 code left it: WAL, version 1, one question with its created line.
  const question = makeQuestion();
  const v1 = new Database(path);
  v1.pragma('journal_mode = WAL');
  migrate(v1, path, MIGRATIONS.slice(0, 1));
  const row = encodeQuestion(question, 'gw-old');
  v1.prepare(`INSERT INTO questions (${QUESTION_COLUMNS.join(', ')}) VALUES (${QUESTION_COLUMNS.map((c) => `@${c}`).join(', ')})`).run(row);
  v1.prepare('INSERT INTO audit (question_id, at, actor, action, detail) VALUES (@question_id, @at, @actor, @action, @detail)').run(
    encodeAudit({ questionId: question.id, actor: 'gateway', action: 'created' }, question.createdAt),
  );
  assert.equal(v1.pragma('user_version', { simple: true }), 1);
  v1.close();

  const upgraded = await openSqliteQuestionStore({ path });
  try {
    assert.equal(upgraded.settings().schemaVersion, MIGRATIONS.length);
    assert.deepEqual(await upgraded.get(question.id), question);
    assert.deepEqual(await upgraded.auditTrail(question.id), [{ questionId: question.id, at: question.createdAt, actor: 'gateway', action: 'created' }]);
    const run = makeRun();
    await upgraded.runs.create(run);
    assert.deepEqual(await upgraded.runs.list(), [run]);
  } finally {
    await upgraded.close();
  }
  const check = new Database(path, { readonly: true });
  try {
    assert.equal(check.pragma('user_version', { simple: true }), MIGRATIONS.length);
    assert.equal(check.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(check.prepare('SELECT count(*) FROM questions').pluck().get(), 1);
  } finally {
    check.close();
  }
});

test('a hand-damaged run gives a clear error for that run only; the others carry on', async () => {
  const path = freshPath();
  const store = await openSqliteQuestionStore({ path });
  try {
    const [damaged, disagreeing, healthy] = [makeRun({ startedAt: '2026-03-01T09:00:00.000Z' }), makeRun({ startedAt: '2026-03-01T09:01:00.000Z' }), makeRun({ startedAt: '2026-03-01T09:02:00.000Z' })];
    for (const run of [damaged, disagreeing, healthy]) await store.runs.create(run);
    const raw = new Database(path);
    raw.prepare('UPDATE runs SET record = ? WHERE id = ?').run('{"id": "half', damaged.id);
    raw.prepare("UPDATE runs SET state = 'completed' WHERE id = ?").run(disagreeing.id);
    raw.close();
    await assert.rejects(store.runs.get(damaged.id), (error: Error & { code?: string; runId?: string }) => {
      assert.equal(error.code, 'corrupt-record');
      assert.equal(error.runId, damaged.id);
      assert.match(error.message, new RegExp(`stored run ${damaged.id} is damaged: record holds invalid JSON`));
      return true;
    });
    await assert.rejects(store.runs.get(disagreeing.id), { code: 'corrupt-record', message: /state disagrees with the record/ });
    await assert.rejects(store.runs.list(), { code: 'corrupt-record' });
    assert.deepEqual(await store.runs.list({ limit: 1 }), [healthy], 'a page without the damaged runs still lists');
    assert.deepEqual(await store.runs.get(healthy.id), healthy);
    await assert.rejects(store.runs.abandonRunning('restart'), { code: 'corrupt-record' });
    assert.deepEqual(await store.runs.get(healthy.id), healthy, 'the refused abandon changed nothing (one transaction)');
  } finally {
    await store.close();
  }
});
