/**
 * @module The SQLite store commits with synchronous=NORMAL and syncs the WAL itself, off the event loop: no write resolves
 * and no read returns anything before a sync that covers it has ended; concurrent writes share a sync; a failed sync is
 * never reported as done.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';

import Database from 'better-sqlite3';

import { makeQuestion } from '../testing/question-fixtures.js';
import { makeRun } from '../testing/run-fixtures.js';
import type { SqliteQuestionStore } from './sqlite-question-store.js';
import { openSqliteQuestionStore } from './sqlite-question-store.js';
import type { HeldSync } from './testing/held-sync.js';
import { heldSync, settledYet } from './testing/held-sync.js';

const created = { actor: 'gateway', action: 'created' } as const;
const delivered = { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' } } as const;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function openHeld(): Promise<{ store: SqliteQuestionStore; file: HeldSync; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-synced-'));
  dirs.push(dir);
  const path = join(dir, 'questions.db');
  const file = heldSync();
  const store = await openSqliteQuestionStore({ path, syncWal: file.sync });
  return { store, file, path };
}

/** What another connection reads: committed rows, synced or not. */
function committedState(path: string, id: string): string | undefined {
  const raw = new Database(path, { readonly: true });
  try {
    return (raw.prepare('SELECT state FROM questions WHERE id = ?').pluck().get(id) as string | undefined) ?? undefined;
  } finally {
    raw.close();
  }
}

/** Runs `write` while the sync is held: it must be committed at once, yet resolve only after a sync that started later ends. */
async function resolvesAfterSync<T>(file: HeldSync, write: () => Promise<T>, committed?: () => void): Promise<T> {
  const before = file.started;
  file.hold();
  const pending = write();
  committed?.();
  assert.equal(await settledYet(pending), false, 'resolved before the WAL was synced');
  assert.equal(file.started, before + 1, 'one sync started for it');
  file.release(undefined, true);
  return pending;
}

test('the connection commits with synchronous=NORMAL in WAL mode: the store syncs the WAL itself', async () => {
  const { store } = await openHeld();
  try {
    const settings = store.settings();
    assert.equal(settings.journalMode, 'wal');
    assert.equal(settings.synchronous, 1);
  } finally {
    await store.close();
  }
});

test('every write is committed at once but resolves only after a WAL sync that started after it: create, transition, audit, abandonOpen', async () => {
  const { store, file, path } = await openHeld();
  try {
    const question = makeQuestion();
    await resolvesAfterSync(file, () => store.create(question, created), () => assert.equal(committedState(path, question.id), 'pending'));
    const record = await resolvesAfterSync(file, () => store.transition(question.id, delivered), () => assert.equal(committedState(path, question.id), 'delivered'));
    assert.equal(record?.state, 'delivered');
    await resolvesAfterSync(file, () => store.audit({ questionId: question.id, actor: 'host:host-1', action: 'rejected-answer' }));
    assert.equal(await resolvesAfterSync(file, () => store.abandonOpen('restart')), 1);
  } finally {
    await store.close();
  }
});

test('createCommitted (a question put to its host only) resolves once committed; its onDisk once a sync that started after it ends', async () => {
  const { store, file, path } = await openHeld();
  try {
    const question = makeQuestion({ state: 'delivered' });
    const before = file.started;
    file.hold();
    const { onDisk } = await store.createCommitted(question, created, { actor: 'gateway', action: 'delivered' });
    assert.equal(committedState(path, question.id), 'delivered');
    assert.equal(await settledYet(onDisk), false);
    assert.equal(file.started, before + 1);
    file.release(undefined, true);
    await onDisk;
    file.hold();
    const { onDisk: failing } = await store.createCommitted(makeQuestion(), created);
    await settledYet(failing);
    file.fail(new Error('EIO'));
    await assert.rejects(failing, { code: 'unavailable' });
  } finally {
    await store.close();
  }
});

test('the composite runs on the same connection wait for the sync too: create, update, abandonRunning', async () => {
  const { store, file } = await openHeld();
  try {
    const run = makeRun();
    await resolvesAfterSync(file, () => store.runs.create(run));
    await resolvesAfterSync(file, () => store.runs.update(run));
    await resolvesAfterSync(file, () => store.runs.create(makeRun()));
    assert.equal(await resolvesAfterSync(file, () => store.runs.abandonRunning('restart')), 2);
  } finally {
    await store.close();
  }
});

test('group commit: sixteen questions created in one turn of the event loop are on disk after one sync', async () => {
  const { store, file } = await openHeld();
  try {
    const before = file.started;
    file.hold();
    const writes = Array.from({ length: 16 }, () => store.create(makeQuestion(), created));
    assert.equal(await settledYet(Promise.all(writes)), false);
    assert.equal(file.started, before + 1);
    file.release(undefined, true);
    await Promise.all(writes);
    assert.equal(file.started, before + 1, 'sixteen writes, one sync');
  } finally {
    await store.close();
  }
});

test('a read shows nothing before it is on disk: it waits for the sync of a write it sees', async () => {
  const { store, file } = await openHeld();
  try {
    const question = makeQuestion();
    file.hold();
    const writing = store.create(question, created);
    const reads = [store.get(question.id), store.list(), store.auditTrail(question.id), store.runs.list()];
    for (const read of reads) assert.equal(await settledYet(read), false, 'a read returned a write not yet on disk');
    file.release(undefined, true);
    await writing;
    const [got, listed, trail] = await Promise.all(reads);
    assert.deepEqual(got, question);
    assert.deepEqual(listed, [question]);
    assert.deepEqual((trail as { action: string }[]).map((line) => line.action), ['created']);
  } finally {
    await store.close();
  }
});

test('a read when everything is on disk starts no sync', async () => {
  const { store, file } = await openHeld();
  try {
    const question = makeQuestion();
    await store.create(question, created);
    const before = file.started;
    assert.deepEqual(await store.get(question.id), question);
    await store.list();
    assert.equal(file.started, before);
  } finally {
    await store.close();
  }
});

test('another connection\'s commit (another process on the file) is synced before this store shows it', async () => {
  const { store: one, path } = await openHeld();
  const file = heldSync();
  const two = await openSqliteQuestionStore({ path, syncWal: file.sync });
  try {
    const question = makeQuestion();
    await one.create(question, created);
    const before = file.started;
    file.hold();
    const listing = two.list();
    assert.equal(await settledYet(listing), false, 'shown before this store synced the other one\'s commit');
    assert.equal(file.started, before + 1);
    file.release(undefined, true);
    assert.deepEqual(await listing, [question]);
    await two.get(question.id);
    assert.equal(file.started, before + 1, 'nothing new from the other connection: no second sync');
  } finally {
    await two.close();
    await one.close();
  }
});

test('a failed sync is never reported as done: the write is refused (unavailable), and so is every write after it', async () => {
  const { store, file } = await openHeld();
  try {
    file.hold();
    const writing = store.create(makeQuestion(), created);
    assert.equal(await settledYet(writing), false);
    file.fail(new Error('EIO: i/o error, fdatasync'));
    await assert.rejects(writing, (error: Error & { code?: string }) => {
      assert.equal(error.code, 'unavailable');
      assert.match(error.message, /could not be synced to disk.*EIO/);
      return true;
    });
    await assert.rejects(store.create(makeQuestion(), created), { code: 'unavailable' });
    await assert.rejects(store.runs.create(makeRun()), { name: 'RunStoreError', code: 'unavailable' });
  } finally {
    await store.close();
  }
});

test('close waits for the sync in flight, so a write that was committed still resolves', async () => {
  const { store, file } = await openHeld();
  file.hold();
  const writing = store.create(makeQuestion(), created);
  assert.equal(await settledYet(writing), false);
  const closing = store.close();
  assert.equal(await settledYet(closing), false);
  file.release(undefined, true);
  await Promise.all([writing, closing]);
});
