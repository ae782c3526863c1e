/** @module WalSync: when a commit made with synchronous=NORMAL is reported on disk (one sync covers every commit made before it started). */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { WalSync, walFileSync } from './wal-sync.js';
import { heldSync, settledYet } from './testing/held-sync.js';

test('nothing committed: durable() resolves without a sync', async () => {
  const file = heldSync();
  const sync = new WalSync(file.sync);
  await sync.durable();
  assert.equal(file.started, 0);
});

test('a commit is reported durable only when a sync started after it has ended', async () => {
  const file = heldSync({ held: true });
  const sync = new WalSync(file.sync);
  sync.committed();
  const durable = sync.durable();
  assert.equal(await settledYet(durable), false, 'not before the sync ends');
  assert.equal(file.started, 1);
  file.release();
  assert.equal(await settledYet(durable), true);
  await durable;
  await sync.durable();
  assert.equal(file.started, 1, 'a commit already on disk needs no second sync');
});

test('a commit of another connection (the probe says so) needs a sync before anything is shown, once', async () => {
  const file = heldSync();
  let elsewhere = true;
  const sync = new WalSync(file.sync, () => {
    const was = elsewhere;
    elsewhere = false;
    return was;
  });
  await sync.durable();
  assert.equal(file.started, 1);
  await sync.durable();
  assert.equal(file.started, 1);
});

test('group commit: commits made before a sync starts share it', async () => {
  const file = heldSync({ held: true });
  const sync = new WalSync(file.sync);
  const waits: Promise<void>[] = [];
  for (let i = 0; i < 16; i++) {
    sync.committed();
    waits.push(sync.durable());
  }
  assert.equal(await settledYet(Promise.all(waits)), false);
  assert.equal(file.started, 1);
  file.release();
  await Promise.all(waits);
  assert.equal(file.started, 1, 'sixteen commits, one sync');
});

test('a commit made while a sync runs waits for the next sync, which starts when that one ends and covers all such commits', async () => {
  const file = heldSync({ held: true });
  const sync = new WalSync(file.sync);
  sync.committed();
  const first = sync.durable();
  assert.equal(await settledYet(first), false);
  assert.equal(file.started, 1);
  sync.committed();
  const second = sync.durable();
  sync.committed();
  const third = sync.durable();
  assert.equal(await settledYet(second), false);
  assert.equal(file.started, 1, 'the second sync waits for the first: one sync at a time');
  file.release(1);
  await first;
  assert.equal(await settledYet(second), false, 'the first sync started before the second commit: it does not cover it');
  assert.equal(file.started, 2);
  file.release(1);
  await Promise.all([second, third]);
  assert.equal(file.started, 2);
});

test('a failed sync: the writes it covered are refused, and so is every write after it (nothing is reported done that may not be on disk)', async () => {
  const file = heldSync({ held: true });
  const sync = new WalSync(file.sync);
  sync.committed();
  const covered = sync.durable();
  assert.equal(await settledYet(covered), false);
  sync.committed();
  const next = sync.durable();
  file.fail(new Error('EIO: i/o error, fdatasync'));
  await assert.rejects(covered, /EIO/);
  await assert.rejects(next, /EIO/);
  sync.committed();
  await assert.rejects(sync.durable(), /EIO/);
  assert.equal(file.started, 1, 'no retry: a second fsync could succeed on pages the first one lost');
});

test('settle() waits for the sync in flight; a commit after it still gets its own', async () => {
  const file = heldSync({ held: true });
  const sync = new WalSync(file.sync);
  sync.committed();
  const durable = sync.durable();
  const settled = sync.settle();
  assert.equal(await settledYet(settled), false);
  assert.equal(file.started, 1);
  file.release();
  await Promise.all([durable, settled]);
  await sync.settle();
  assert.equal(file.started, 1);
});

test('walFileSync opens the file when first asked, syncs it each time, and closes it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-walsync-'));
  try {
    const path = join(dir, 'x.db-wal');
    const file = walFileSync(path);
    await file.close();
    writeFileSync(path, 'frames');
    const again = walFileSync(path);
    await again.sync();
    await again.sync();
    await again.close();
    await assert.rejects(walFileSync(join(dir, 'missing-wal')).sync(), { code: 'ENOENT' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
