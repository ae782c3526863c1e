/** @module The in-memory run store against the shared contract, and what is particular to it. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { RunRecord } from '../../composite/run-record.js';
import { createRunRecorder } from '../../composite/run-store.js';
import { runStoreContract } from '../testing/run-store-contract.js';
import { makeRun } from '../testing/run-fixtures.js';
import { MemoryRunStore, createMemoryRunDatabase } from './memory-run-store.js';

runStoreContract('memory', async () => {
  const database = createMemoryRunDatabase();
  return {
    open: async (options) => {
      const store = new MemoryRunStore({ ...options, database });
      return { store, close: () => store.close() };
    },
    dispose: async () => {},
  };
});

test('each memory run store has its own tables unless it is given shared ones', async () => {
  const one = new MemoryRunStore();
  const two = new MemoryRunStore();
  await one.create(makeRun());
  assert.equal((await one.list()).length, 1);
  assert.deepEqual(await two.list(), []);
});

test('a closed memory run store refuses every call (closed)', async () => {
  const store = new MemoryRunStore();
  await store.close();
  await assert.rejects(store.list(), { name: 'RunStoreError', code: 'closed' });
  await assert.rejects(store.create(makeRun()), { code: 'closed' });
});

test('the recorder collapses snapshots queued during a slow write into the latest, in order, and flush(runId) waits for that run only', async () => {
  const inner = new MemoryRunStore();
  const writes: string[] = [];
  let release: (() => void) | undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const slow = {
    ...inner,
    get: inner.get.bind(inner),
    list: inner.list.bind(inner),
    findByQuestion: inner.findByQuestion.bind(inner),
    abandonRunning: inner.abandonRunning.bind(inner),
    async create(run: RunRecord) {
      writes.push(`create ${run.id} ${run.state} ${run.steps.map((step) => step.state).join(',')}`);
      await gate;
      await inner.create(run);
    },
    async update(run: RunRecord) {
      writes.push(`update ${run.id} ${run.state} ${run.steps.map((step) => step.state).join(',')}`);
      await gate;
      await inner.update(run);
    },
  };
  const recorder = createRunRecorder(slow);
  const run = makeRun({ id: 'run-a', steps: [{ id: 's1', kind: 'tool', state: 'pending' }, { id: 's2', kind: 'tool', state: 'pending' }] });
  const other = makeRun({ id: 'run-b', steps: [] });
  recorder.changed(run);
  recorder.changed(other);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const [s1, s2] = run.steps as [RunRecord['steps'][number], RunRecord['steps'][number]];
  s1.state = 'running';
  recorder.changed(run, s1);
  s1.state = 'completed';
  recorder.changed(run, s1);
  s2.state = 'completed';
  run.state = 'completed';
  recorder.changed(run);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(writes, ['create run-a running pending,pending', 'create run-b running '], 'the first writes are under way; the rest wait');
  release?.();
  await recorder.flush('run-a');
  assert.deepEqual(writes.slice(2), ['update run-a completed completed,completed'], 'three queued snapshots became one write of the latest');
  assert.equal((await inner.get('run-a'))?.state, 'completed');
  await recorder.flush();
  assert.deepEqual(await inner.get('run-b'), other);
});
