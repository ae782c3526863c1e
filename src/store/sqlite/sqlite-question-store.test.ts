/** @module The SQLite question store against the shared contract, and what is particular to a file: creation, settings, reopening, damage. */

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';

import Database from 'better-sqlite3';

import { questionStoreContract } from '../testing/question-store-contract.js';
import { makeQuestion, manualClock } from '../testing/question-fixtures.js';
import { MIGRATIONS } from './schema.js';
import { DEFAULT_STORE_PATH, openSqliteQuestionStore } from './sqlite-question-store.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'switchboard-store-'));
}

questionStoreContract('sqlite', async () => {
  const dir = tempDir();
  return {
    open: (options) => openSqliteQuestionStore({ ...options, path: join(dir, 'questions.db') }),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function freshPath(name = 'questions.db'): string {
  const dir = tempDir();
  dirs.push(dir);
  return join(dir, name);
}

const created = { actor: 'gateway', action: 'created' } as const;

test('the default path is data/switchboard.db under the working directory', () => {
  assert.equal(DEFAULT_STORE_PATH, 'data/switchboard.db');
});

test('the first start creates the folders and the file, in WAL mode with synchronous=NORMAL (the store syncs the WAL itself: synced-writes.test.ts), foreign keys and a busy timeout', async () => {
  const path = join(freshPath(), '..', 'nested', 'deeper', 'store.db');
  assert.equal(existsSync(path), false);
  const store = await openSqliteQuestionStore({ path, busyTimeoutMs: 1234 });
  try {
    assert.ok(statSync(path).isFile());
    const settings = store.settings();
    assert.equal(settings.journalMode, 'wal');
    assert.equal(settings.synchronous, 1);
    assert.equal(settings.foreignKeys, true);
    assert.equal(settings.busyTimeoutMs, 1234);
    assert.equal(settings.schemaVersion, MIGRATIONS.length);
  } finally {
    await store.close();
  }
  const raw = new Database(path, { readonly: true });
  try {
    assert.equal(raw.pragma('user_version', { simple: true }), MIGRATIONS.length);
    assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal', 'WAL is a property of the file');
  } finally {
    raw.close();
  }
});

test('questions and trails outlive the process that wrote them: close, reopen, all there', async () => {
  const path = freshPath();
  const clock = manualClock();
  const first = await openSqliteQuestionStore({ path, owner: 'gw-1', now: clock.now });
  const question = makeQuestion();
  await first.create(question, created);
  await first.transition(question.id, { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' } });
  const before = await first.get(question.id);
  const trail = await first.auditTrail(question.id);
  await first.close();
  assert.equal(existsSync(`${path}-wal`), false, 'closing the last connection folds the WAL into the file');

  const second = await openSqliteQuestionStore({ path, now: clock.now });
  try {
    assert.deepEqual(await second.get(question.id), before);
    assert.deepEqual(await second.auditTrail(question.id), trail);
    assert.equal(await second.abandonOpen('restart', 'gw-2'), 0, 'the owner was stored with the question');
    assert.equal(await second.abandonOpen('restart', 'gw-1'), 1);
  } finally {
    await second.close();
  }
});

test('a file from a newer Switchboard is refused with a clear error and left untouched', async () => {
  const path = freshPath();
  await (await openSqliteQuestionStore({ path })).close();
  const raw = new Database(path);
  raw.pragma('journal_mode = DELETE');
  raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
  raw.close();
  const bytes = readFileSync(path);
  await assert.rejects(openSqliteQuestionStore({ path }), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'newer-schema');
    assert.match(error.message, new RegExp(`schema version ${MIGRATIONS.length + 1}.*up to ${MIGRATIONS.length}`));
    assert.ok(error.message.includes(path));
    return true;
  });
  assert.deepEqual(readFileSync(path), bytes, 'not even switched to WAL');
});

test('a file that is not a question store is refused (not-a-store): another SQLite database, or not SQLite at all', async () => {
  const other = freshPath('other.db');
  const raw = new Database(other);
  raw.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)');
  raw.close();
  await assert.rejects(openSqliteQuestionStore({ path: other }), { code: 'not-a-store' });

  const text = freshPath('notes.txt');
  writeFileSync(text, 'these are my notes, not a database '.repeat(40));
  await assert.rejects(openSqliteQuestionStore({ path: text }), { code: 'not-a-store', message: /not a SQLite database/ });
  assert.equal(readFileSync(text, 'utf8'), 'these are my notes, not a database '.repeat(40));
});

test('a hand-damaged question gives a clear error for that question only; the process and the other questions carry on', async () => {
  const path = freshPath();
  const store = await openSqliteQuestionStore({ path });
  try {
    const damaged = makeQuestion();
    const healthy = makeQuestion();
    await store.create(damaged, created);
    await store.create(healthy, created);
    const raw = new Database(path);
    raw.prepare('UPDATE questions SET params = ? WHERE id = ?').run('{"message": "Restart?', damaged.id);
    raw.close();

    await assert.rejects(store.get(damaged.id), (error: Error & { code?: string; questionId?: string }) => {
      assert.equal(error.code, 'corrupt-record');
      assert.equal(error.questionId, damaged.id);
      assert.match(error.message, new RegExp(`question ${damaged.id} is damaged: params holds invalid JSON`));
      return true;
    });
    await assert.rejects(store.list(), { code: 'corrupt-record', questionId: damaged.id });
    await assert.rejects(
      store.transition(damaged.id, { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' } }),
      { code: 'corrupt-record' },
    );
    assert.deepEqual((await store.auditTrail(damaged.id)).map((entry) => entry.action), ['created'], 'the refused transition wrote nothing');
    assert.deepEqual(await store.get(healthy.id), healthy);
    const delivered = await store.transition(healthy.id, { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' } });
    assert.deepEqual(await store.list({ state: 'delivered' }), [delivered], 'a filter that leaves the damaged question out still lists');
    assert.equal(await store.abandonOpen('restart'), 2, 'the delivered one and the damaged one: a damaged question is still abandoned, not left open for ever');
  } finally {
    await store.close();
  }
});

test('other kinds of hand damage are named too: an unknown state, a column that disagrees, a damaged audit line', async () => {
  const path = freshPath();
  const store = await openSqliteQuestionStore({ path });
  try {
    const [q1, q2, q3] = [makeQuestion(), makeQuestion(), makeQuestion()];
    for (const question of [q1, q2, q3]) await store.create(question, { ...created, detail: { ok: true } });
    const raw = new Database(path);
    raw.prepare("UPDATE questions SET state = 'thinking' WHERE id = ?").run(q1.id);
    raw.prepare("UPDATE questions SET upstream = 'elsewhere' WHERE id = ?").run(q2.id);
    raw.prepare("UPDATE audit SET detail = '[1,2]' WHERE question_id = ?").run(q3.id);
    raw.close();
    await assert.rejects(store.get(q1.id), { code: 'corrupt-record', message: /state is not a question state: "thinking"/ });
    await assert.rejects(store.get(q2.id), { code: 'corrupt-record', message: /upstream disagrees with origin/ });
    await assert.rejects(store.auditTrail(q3.id), { code: 'corrupt-record', message: /audit line \d+ of question .* detail must hold a JSON object/ });
    assert.deepEqual(await store.get(q3.id), q3);
  } finally {
    await store.close();
  }
});

test('two connections on one file: the second finds the schema in place and sees the first one\'s writes', async () => {
  const path = freshPath();
  const [one, two] = await Promise.all([openSqliteQuestionStore({ path }), openSqliteQuestionStore({ path })]);
  try {
    await one.create(makeQuestion(), created);
    assert.equal((await two.list()).length, 1);
  } finally {
    await one.close();
    await two.close();
  }
});
