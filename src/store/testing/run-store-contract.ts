/** @module The one contract every RunStore implementation must pass, run by each implementation's test file. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { RunRecord } from '../../composite/run-record.js';
import type { RunStore, RunStoreErrorCode } from '../../composite/run-store.js';
import { createRunRecorder } from '../../composite/run-store.js';
import { putKey } from '../../protocol/json-clone.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import type { ManualClock } from './question-fixtures.js';
import { manualClock } from './question-fixtures.js';
import { finishRun, makeRun } from './run-fixtures.js';

/** One backing database; every store opened on it sees the same runs (as two connections to one file do). */
export interface RunStoreHarness {
  open(options: { now: () => Date }): Promise<{ store: RunStore; close(): Promise<void> }>;
  /** Removes what the harness made (temporary files). */
  dispose(): Promise<void>;
}

interface Context {
  clock: ManualClock;
  open(): Promise<RunStore>;
}

async function rejectsWith(promise: Promise<unknown>, code: RunStoreErrorCode, message?: RegExp): Promise<void> {
  await assert.rejects(promise, { name: 'RunStoreError', code, ...(message ? { message } : {}) });
}

/**
 * Registers the contract's tests under `name`; `makeHarness` gives each test a fresh, empty database. With `skip`, the
 * suite is reported skipped with that reason (a store whose server is not there), never silently passed.
 */
export function runStoreContract(name: string, makeHarness: () => Promise<RunStoreHarness>, options: { skip?: string } = {}): void {
  function scenario(title: string, body: (context: Context) => Promise<void>): void {
    test(title, async () => {
      const harness = await makeHarness();
      const clock = manualClock();
      const opened: { close(): Promise<void> }[] = [];
      try {
        await body({
          clock,
          async open() {
            const handle = await harness.open({ now: clock.now });
            opened.push(handle);
            return handle.store;
          },
        });
      } finally {
        for (const handle of opened) await handle.close();
        await harness.dispose();
      }
    });
  }

  describe(`RunStore contract: ${name}`, { skip: options.skip ?? false }, () => {
    scenario('create then get returns the record exactly; an unknown id is undefined', async ({ open }) => {
      const store = await open();
      const run = makeRun();
      await store.create(run);
      const back = await store.get(run.id);
      assert.deepEqual(back, run);
      assert.equal(JSON.stringify(back), JSON.stringify(run), 'key order is kept');
      assert.equal(await store.get('run-nobody'), undefined);
    });

    scenario('JSON comes back exactly: nested outputs, `__proto__` as plain data, absent fields left out', async ({ open }) => {
      const store = await open();
      const answer: JsonObject = {};
      putKey(answer, '__proto__', { polluted: true });
      putKey(answer, 'ticket', 'CHG-1');
      const run = makeRun();
      run.steps[0] = { ...run.steps[0]!, output: { list: [1, 2.5, null, 'x', { deep: [true, false] }], empty: {}, text: 'é\u2028"' } };
      run.steps[1] = { ...run.steps[1]!, answer };
      run.steps.push({ id: 'notify', kind: 'tool', state: 'pending', reason: undefined, output: undefined });
      await store.create(run);
      const back = await store.get(run.id);
      assert.deepEqual(back?.steps[0]?.output, run.steps[0]?.output);
      assert.ok(Object.hasOwn(back?.steps[1]?.answer ?? {}, '__proto__'));
      assert.deepEqual(Object.keys(back?.steps[1]?.answer ?? {}), ['__proto__', 'ticket']);
      assert.equal(({} as { polluted?: boolean }).polluted, undefined);
      assert.deepEqual(back?.steps[4], { id: 'notify', kind: 'tool', state: 'pending' });
    });

    scenario('a second create of the same id is refused (duplicate) and the first record stays', async ({ open }) => {
      const store = await open();
      const run = makeRun();
      await store.create(run);
      await rejectsWith(store.create({ ...run, composite: 'other' }), 'duplicate');
      assert.deepEqual(await store.get(run.id), run);
    });

    scenario('update replaces the whole record; an update of a run never created is refused (unknown-run) and creates nothing', async ({ clock, open }) => {
      const store = await open();
      const run = makeRun();
      await store.create(run);
      const finished = finishRun(run, clock.advance(60_000));
      await store.update(finished);
      assert.deepEqual(await store.get(run.id), finished);
      const shorter: RunRecord = { ...finished, steps: finished.steps.slice(0, 1) };
      delete shorter.summary;
      await store.update(shorter);
      assert.deepEqual(await store.get(run.id), shorter, 'fields left out are gone, not merged');

      const stranger = makeRun();
      await rejectsWith(store.update(stranger), 'unknown-run');
      assert.equal(await store.get(stranger.id), undefined);
      assert.equal((await store.list()).length, 1);
    });

    scenario('list is newest first by start time; equal times put the one created last first; updates do not reorder', async ({ open }) => {
      const store = await open();
      const early = makeRun({ startedAt: '2026-03-01T08:00:00.000Z' });
      const tieA = makeRun({ startedAt: '2026-03-01T09:00:00.000Z' });
      const tieB = makeRun({ startedAt: '2026-03-01T09:00:00.000Z' });
      const late = makeRun({ startedAt: '2026-03-01T10:00:00.000Z' });
      for (const run of [tieA, late, early, tieB]) await store.create(run);
      await store.update(finishRun(tieA, '2026-03-01T11:00:00.000Z'));
      assert.deepEqual((await store.list()).map((run) => run.id), [late.id, tieB.id, tieA.id, early.id]);
      assert.deepEqual(await store.list({ composite: 'nothing-like-it' }), []);
    });

    scenario('list filters by composite and state (one or several, AND-ed), pages with before and limit', async ({ open }) => {
      const store = await open();
      const runs: RunRecord[] = [];
      for (let i = 0; i < 6; i++) {
        const run = makeRun({ startedAt: `2026-03-01T09:0${i}:00.000Z`, composite: i % 2 === 0 ? 'safe_restart' : 'rollback' });
        runs.push(run);
        await store.create(run);
      }
      await store.update(finishRun(runs[0]!, '2026-03-01T10:00:00.000Z'));
      await store.update(finishRun(runs[3]!, '2026-03-01T10:00:00.000Z', 'aborted'));
      const ids = (list: RunRecord[]) => list.map((run) => run.id);
      const [r0, r1, r2, r3, r4, r5] = ids(runs);
      assert.deepEqual(ids(await store.list({ composite: 'safe_restart' })), [r4, r2, r0]);
      assert.deepEqual(ids(await store.list({ state: 'running' })), [r5, r4, r2, r1]);
      assert.deepEqual(ids(await store.list({ state: ['completed', 'aborted'] })), [r3, r0]);
      assert.deepEqual(ids(await store.list({ state: ['completed', 'aborted'], composite: 'rollback' })), [r3]);
      assert.deepEqual(await store.list({ state: [] }), [], 'an empty list of states matches nothing');
      assert.deepEqual(ids(await store.list({ limit: 2 })), [r5, r4]);
      assert.deepEqual(ids(await store.list({ limit: 2, before: runs[4]!.startedAt })), [r3, r2]);
      assert.deepEqual(ids(await store.list({ before: '2026-03-01T09:02:00+00:00' })), [r1, r0], 'any ISO form of the bound');
      assert.deepEqual(ids(await store.list({ before: '2026-03-01' })), []);
      assert.deepEqual(ids(await store.list({ limit: 5000 })).length, 6, 'a limit above 1000 is lowered, not refused');
    });

    scenario('list without a limit gives at most 100', async ({ open }) => {
      const store = await open();
      for (let i = 0; i < 102; i++) await store.create(makeRun({ startedAt: new Date(Date.parse('2026-03-01T09:00:00.000Z') + i * 1000).toISOString() }));
      assert.equal((await store.list()).length, 100);
      assert.equal((await store.list({ limit: 1000 })).length, 102);
    });

    scenario('a bad filter is refused (invalid-filter): unknown state, bad limit, bad time, a composite that is not a string', async ({ open }) => {
      const store = await open();
      await rejectsWith(store.list({ state: 'thinking' as never }), 'invalid-filter', /thinking/);
      await rejectsWith(store.list({ state: ['running', 'x'] as never }), 'invalid-filter');
      await rejectsWith(store.list({ limit: 0 }), 'invalid-filter', /limit/);
      await rejectsWith(store.list({ limit: 1.5 }), 'invalid-filter', /limit/);
      await rejectsWith(store.list({ before: 'yesterday' }), 'invalid-filter', /before/);
      await rejectsWith(store.list({ composite: 7 as never }), 'invalid-filter', /composite/);
    });

    scenario('findByQuestion finds the run and the step that asked a question, following updates', async ({ clock, open }) => {
      const store = await open();
      const run = makeRun();
      const asked = run.steps[1]!.questionId!;
      assert.equal(await store.findByQuestion(asked), undefined, 'nothing before the run is recorded');
      await store.create(run);
      assert.deepEqual(await store.findByQuestion(asked), { run, stepId: 'approve' });

      // A later step asks a second question; the record returned is always the current one.
      const later: RunRecord = { ...run, steps: [...run.steps, { id: 'confirm-done', kind: 'elicit', state: 'running', startedAt: clock.advance(), questionId: 'q-second' }] };
      await store.update(later);
      assert.deepEqual(await store.findByQuestion('q-second'), { run: later, stepId: 'confirm-done' });
      assert.deepEqual(await store.findByQuestion(asked), { run: later, stepId: 'approve' });

      // A record that no longer names a question drops its link.
      const without: RunRecord = { ...later, steps: later.steps.slice(0, 1) };
      await store.update(without);
      assert.equal(await store.findByQuestion(asked), undefined);
      assert.equal(await store.findByQuestion('q-second'), undefined);
      assert.equal(await store.findByQuestion('q-never-asked'), undefined);
    });

    scenario('forEach items asking one question each are each found; a question is linked to the first step naming it', async ({ open }) => {
      const store = await open();
      const run = makeRun({
        steps: [
          { id: 'approve-each', kind: 'forEach', state: 'running' },
          { id: 'approve-each[0]', kind: 'elicit', state: 'completed', outcome: 'accept', answer: { ok: true }, questionId: 'q-item-0' },
          { id: 'approve-each[1]', kind: 'elicit', state: 'running', questionId: 'q-item-1' },
          { id: 'again', kind: 'elicit', state: 'running', questionId: 'q-item-1' },
        ],
      });
      await store.create(run);
      assert.equal((await store.findByQuestion('q-item-0'))?.stepId, 'approve-each[0]');
      assert.equal((await store.findByQuestion('q-item-1'))?.stepId, 'approve-each[1]');
    });

    scenario('a question belongs to one run: another run naming it is refused (invalid-record) and neither changes', async ({ open }) => {
      const store = await open();
      const first = makeRun();
      await store.create(first);
      const asked = first.steps[1]!.questionId!;
      const second = makeRun();
      second.steps[1] = { ...second.steps[1]!, questionId: asked };
      await rejectsWith(store.create(second), 'invalid-record', new RegExp(`question ${asked} belongs to run ${first.id}`));
      assert.equal(await store.get(second.id), undefined);
      const third = makeRun();
      await store.create(third);
      const claimed: RunRecord = { ...third, steps: [...third.steps, { id: 'steal', kind: 'elicit', state: 'running', questionId: asked }] };
      await rejectsWith(store.update(claimed), 'invalid-record');
      assert.deepEqual(await store.get(third.id), third, 'the refused update wrote nothing');
      assert.equal((await store.findByQuestion(asked))?.run.id, first.id);
    });

    scenario('a record that would not read back as itself is refused (invalid-record) and nothing is written', async ({ open }) => {
      const store = await open();
      const bad: [string, RunRecord][] = [
        ['unknown run state', makeRun({ state: 'paused' as never })],
        ['a time not as toISOString writes it', makeRun({ startedAt: '2026-03-01 09:00' })],
        ['a finish time in another form', makeRun({ finishedAt: '2026-03-01T10:00:00Z' })],
        ['no composite', makeRun({ composite: '' })],
        ['input not an object', makeRun({ input: [] as never })],
        ['a step of an unknown kind', makeRun({ steps: [{ id: 's', kind: 'shell' as never, state: 'pending' }] })],
        ['a step of an unknown state', makeRun({ steps: [{ id: 's', kind: 'tool', state: 'done' as never }] })],
        ['an unknown outcome', makeRun({ steps: [{ id: 's', kind: 'elicit', state: 'completed', outcome: 'maybe' as never }] })],
        ['negative attempts', makeRun({ steps: [{ id: 's', kind: 'tool', state: 'failed', attempts: -1 }] })],
        ['an answer that is not an object', makeRun({ steps: [{ id: 's', kind: 'elicit', state: 'completed', answer: 'yes' as never }] })],
        ['an output JSON cannot hold', makeRun({ steps: [{ id: 's', kind: 'tool', state: 'completed', output: { big: 10n } }] })],
        ['an output JSON would change', makeRun({ steps: [{ id: 's', kind: 'tool', state: 'completed', output: { when: new Date(0) } }] })],
        ['a NaN in an output', makeRun({ steps: [{ id: 's', kind: 'tool', state: 'completed', output: [Number.NaN] }] })],
      ];
      for (const [why, run] of bad) {
        await rejectsWith(store.create(run), 'invalid-record');
        assert.equal(await store.get(run.id), undefined, why);
      }
      const good = makeRun();
      await store.create(good);
      await rejectsWith(store.update({ ...good, state: 'paused' as never }), 'invalid-record');
      assert.deepEqual(await store.get(good.id), good);
    });

    scenario('abandonRunning fails every running run with the reason, aborting its running steps and skipping its pending ones', async ({ clock, open }) => {
      const store = await open();
      const running = makeRun();
      const done = finishRun(makeRun(), '2026-03-01T09:05:00.000Z');
      await store.create(running);
      await store.create(done);
      const at = clock.advance(3_600_000);
      assert.equal(await store.abandonRunning('the gateway restarted during the run'), 1);
      const after = await store.get(running.id);
      assert.equal(after?.state, 'failed');
      assert.equal(after?.finishedAt, at);
      assert.equal(after?.summary, 'the gateway restarted during the run');
      assert.deepEqual(after?.steps.map((step) => [step.id, step.state, step.reason]), [
        ['lookup', 'completed', undefined],
        ['approve', 'completed', undefined],
        ['restart', 'aborted', 'the gateway restarted during the run'],
        ['summarize', 'skipped', 'the gateway restarted during the run'],
      ]);
      assert.equal(after?.steps[2]?.finishedAt, at);
      assert.deepEqual(await store.get(done.id), done, 'a finished run is untouched');
      assert.equal((await store.findByQuestion(running.steps[1]!.questionId!))?.run.state, 'failed');
      assert.equal(await store.abandonRunning('again'), 0);
    });

    scenario('two stores on one database see each other\'s writes', async ({ open }) => {
      const one = await open();
      const two = await open();
      const run = makeRun();
      await one.create(run);
      assert.deepEqual(await two.get(run.id), run);
      await rejectsWith(two.create(run), 'duplicate');
      const finished = finishRun(run, '2026-03-01T09:10:00.000Z');
      await two.update(finished);
      assert.deepEqual(await one.list(), [finished]);
    });

    scenario('the recorder writes a run as the composer changes it in place, ending with its last state', async ({ clock, open }) => {
      const store = await open();
      const errors: unknown[] = [];
      const recorder = createRunRecorder(store, { onError: (error) => errors.push(error) });
      const run = makeRun({ steps: [{ id: 'lookup', kind: 'tool', state: 'pending' }, { id: 'approve', kind: 'elicit', state: 'pending' }] });
      recorder.changed(run);
      const [lookup, approve] = run.steps as [RunRecord['steps'][number], RunRecord['steps'][number]];
      lookup.state = 'running';
      lookup.startedAt = clock.iso();
      recorder.changed(run, lookup);
      lookup.state = 'completed';
      lookup.finishedAt = clock.advance();
      lookup.output = { ok: true };
      recorder.changed(run, lookup);
      await recorder.flush();
      assert.deepEqual(await store.get(run.id), run);

      approve.state = 'running';
      approve.questionId = 'q-recorded';
      recorder.changed(run, approve);
      approve.state = 'completed';
      approve.outcome = 'accept';
      approve.answer = { confirm: true };
      run.state = 'completed';
      run.finishedAt = clock.advance();
      run.summary = 'done';
      recorder.changed(run);
      run.summary = 'changed after the last notification: not written';
      await recorder.flush();
      assert.deepEqual(await store.get(run.id), { ...run, summary: 'done' });
      assert.equal((await store.findByQuestion('q-recorded'))?.stepId, 'approve');
      assert.deepEqual(errors, []);

      // A write the store refuses is reported, and the run carries on.
      const broken = makeRun({ state: 'paused' as never });
      recorder.changed(broken);
      await recorder.flush();
      assert.equal(errors.length, 1);
      assert.equal(await store.get(broken.id), undefined);
    });
  });
}
