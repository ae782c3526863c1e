/** @module Tests of the bounded delivery queue: limited concurrency, retries off the workers, a full queue refuses, close flushes briefly then gives up. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { eventually } from '../core/testing/deadlines.js';
import { DeliveryQueue } from './delivery-queue.js';
import type { Job } from './delivery-queue.js';

/** A job whose runs the test resolves by hand (each run: the retry delay, or undefined when done). */
function manualJob(name: string, log: string[]) {
  const runs: { finish: (retryInMs?: number) => void; signal: AbortSignal }[] = [];
  const gaveUp: string[] = [];
  const job: Job = {
    run: (signal) =>
      new Promise((resolve) => {
        log.push(`run ${name}`);
        runs.push({ finish: resolve, signal });
        signal.addEventListener('abort', () => resolve(undefined));
      }),
    giveUp: (why) => {
      gaveUp.push(why);
    },
  };
  return { job, runs, gaveUp };
}

test('at most `concurrency` jobs run at once; the next starts when one ends', async () => {
  const log: string[] = [];
  const queue = new DeliveryQueue({ capacity: 10, concurrency: 2 });
  const [a, b, c] = ['a', 'b', 'c'].map((name) => manualJob(name, log));
  assert.ok(a && b && c);
  for (const { job } of [a, b, c]) assert.equal(queue.push(job), true);
  assert.deepEqual(log, ['run a', 'run b']);
  assert.equal(queue.size, 3);
  a.runs[0]?.finish();
  await eventually(() => log.length === 3, 'c starts');
  assert.deepEqual(log, ['run a', 'run b', 'run c']);
  b.runs[0]?.finish();
  c.runs[0]?.finish();
  await eventually(() => queue.size === 0, 'all done');
  await queue.close(0);
});

test('a retry waits off the workers and runs again when due; the wait counts towards the capacity', async () => {
  const log: string[] = [];
  const queue = new DeliveryQueue({ capacity: 2, concurrency: 1 });
  const a = manualJob('a', log);
  const b = manualJob('b', log);
  queue.push(a.job);
  a.runs[0]?.finish(30);
  await eventually(() => log.length === 1 && queue.size === 1, 'a waits');
  queue.push(b.job);
  assert.deepEqual(log, ['run a', 'run b'], 'b runs while a waits');
  const c = manualJob('c', log);
  assert.equal(queue.push(c.job), false, 'full: a waiting and b running');
  b.runs[0]?.finish();
  await eventually(() => log.length === 3, 'a runs again');
  assert.deepEqual(log, ['run a', 'run b', 'run a']);
  a.runs[1]?.finish();
  await eventually(() => queue.size === 0, 'done');
  await queue.close(0);
});

test('close: what ends within the flush time ends; then running jobs are aborted and every job left is given up', async () => {
  const log: string[] = [];
  const queue = new DeliveryQueue({ capacity: 10, concurrency: 1 });
  const quick = manualJob('quick', log);
  const stuck = manualJob('stuck', log);
  const later = manualJob('later', log);
  const waiting = manualJob('waiting', log);
  queue.push(waiting.job);
  waiting.runs[0]?.finish(60_000);
  await eventually(() => queue.size === 1 && log.length === 1, 'waiting waits a minute');
  queue.push(quick.job);
  queue.push(stuck.job);
  queue.push(later.job);
  setTimeout(() => quick.runs[0]?.finish(), 10);
  const started = performance.now();
  const gaveUp = await queue.close(150);
  assert.ok(performance.now() - started < 1000, 'close does not wait for the minute-long retry');
  assert.equal(gaveUp, 3);
  assert.deepEqual(quick.gaveUp, []);
  assert.equal(stuck.runs[0]?.signal.aborted, true, 'the attempt in flight is aborted (and gives itself up)');
  assert.deepEqual([stuck.gaveUp, later.gaveUp, waiting.gaveUp].map((why) => why.length), [0, 1, 1]);
  assert.equal(queue.push(manualJob('after', log).job), false, 'closed');
  assert.equal(queue.size, 0);
});
