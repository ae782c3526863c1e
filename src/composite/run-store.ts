/**
 * @module Where composite runs are kept: the store contract (SQLite beside the questions, or memory), its error
 * type, and a recorder that turns the composer's change notifications into ordered, durable writes.
 */

import { LocalError } from '../core/errors/local.js';
import type { RunRecord, RunState, StepRecord } from './run-record.js';

/** States a run ends in; a run in one of them is never written again by the recorder. */
export const FINISHED_RUN_STATES: readonly RunState[] = ['completed', 'aborted', 'failed', 'timed-out'];

export interface RunFilter {
  /** The composite's name, exactly. */
  composite?: string;
  /** One state or several (any of them); an empty list matches nothing. */
  state?: RunState | RunState[];
  /** Newest first, at most this many (default 100, at most 1000). */
  limit?: number;
  /** Only runs started strictly before this ISO time (paging backwards: pass the last `startedAt` you got). */
  before?: string;
}

/** The run a question belongs to, and the step of that run that asked it. */
export interface RunOfQuestion {
  run: RunRecord;
  stepId: string;
}

/**
 * Every method resolves once the change is durable. A run is small: `update` replaces the whole record. The store
 * keeps, beside each run, which questions its steps asked (each step's `questionId`), so that a question's record
 * can link to its run. A question belongs to at most one run.
 *
 * Rejections are `RunStoreError`s: `invalid-record` (a record that would not read back as itself: an unknown
 * state, a time not in `toISOString()` form, an output that is not JSON, a question already claimed by another run),
 * `duplicate` (create of an existing id), `unknown-run` (update of a run never created), `invalid-filter`,
 * `corrupt-record` (a stored run cannot be read back), `closed` and `unavailable` (a database server that cannot be reached
 * or refuses us). A refused write changes nothing.
 */
export interface RunStore {
  /** Records a new run (usually `running`, with its steps `pending`). */
  create(run: RunRecord): Promise<void>;
  /** Replaces the stored record of `run.id` with `run`. */
  update(run: RunRecord): Promise<void>;
  get(id: string): Promise<RunRecord | undefined>;
  /** Newest first (by `startedAt`; among equal times, the one created last first). */
  list(filter?: RunFilter): Promise<RunRecord[]>;
  /** The run whose step asked the desk question `questionId`, or undefined. */
  findByQuestion(questionId: string): Promise<RunOfQuestion | undefined>;
  /**
   * At start: every run still `running` belonged to a process that stopped. Each becomes `failed`, finished now,
   * with `reason` as its summary; its running steps become `aborted` and its pending ones `skipped`, both with
   * `reason`. Resolves how many runs it changed. With `owner`, only the runs that gateway instance created: the
   * PostgreSQL store (shared by several instances) keeps the owner; the single-gateway stores keep none and take all.
   */
  abandonRunning(reason: string, owner?: string): Promise<number>;
}

export type RunStoreErrorCode = 'invalid-record' | 'corrupt-record' | 'invalid-filter' | 'duplicate' | 'unknown-run' | 'closed' | 'unavailable';

export class RunStoreError extends LocalError {
  readonly code: RunStoreErrorCode;
  /** The run concerned, when there is one. */
  readonly runId: string | undefined;

  constructor(code: RunStoreErrorCode, message: string, options: { runId?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RunStoreError';
    this.code = code;
    this.runId = options.runId;
  }
}

export function isRunStoreError(error: unknown, code?: RunStoreErrorCode): error is RunStoreError {
  return error instanceof RunStoreError && (code === undefined || error.code === code);
}

/** What the composer calls on every change (it is shaped like its `RunObserver`), and what the gateway awaits before answering the host. */
export interface RunRecorder {
  /** The run (the same object, changed in place) or one of its steps changed: a snapshot is queued for writing. Never throws. */
  changed(run: RunRecord, step?: StepRecord): void;
  /**
   * Resolves once every snapshot queued so far (of run `runId` only, when given) is written, or failed and was
   * reported. Never rejects. The gateway awaits it before answering the host, so the run's last state is durable.
   */
  flush(runId?: string): Promise<void>;
}

export interface RunRecorderOptions {
  /** Told about a write that failed; the run carries on (recording never breaks a composite). */
  onError?: (error: unknown, run: RunRecord) => void;
}

interface Pending {
  created: boolean;
  /** The latest snapshot not yet written. */
  next: RunRecord | undefined;
  writing: Promise<void> | undefined;
}

/**
 * Writes runs to `store` as the composer changes them: the first snapshot of a run is `create`d, later ones
 * `update` it. Writes of one run are serialised, and snapshots queued while one is being written collapse into
 * the latest, so the store always ends with the run's last state and never goes back to an older one.
 */
export function createRunRecorder(store: RunStore, options: RunRecorderOptions = {}): RunRecorder {
  const runs = new Map<string, Pending>();
  const report = (error: unknown, run: RunRecord) => {
    try {
      options.onError?.(error, run);
    } catch {
      // A failing reporter must not break the run either.
    }
  };

  async function drain(id: string, pending: Pending): Promise<void> {
    // Never finish synchronously, so `writing` is always set before it is cleared.
    await Promise.resolve();
    let last: RunRecord | undefined;
    while (pending.next !== undefined) {
      const run = pending.next;
      pending.next = undefined;
      last = run;
      try {
        if (pending.created) {
          try {
            await store.update(run);
          } catch (error) {
            // The store lost it (a reset memory store): record it afresh.
            if (!isRunStoreError(error, 'unknown-run')) throw error;
            await store.create(run);
          }
        } else {
          try {
            await store.create(run);
          } catch (error) {
            if (!isRunStoreError(error, 'duplicate')) throw error;
            await store.update(run);
          }
          pending.created = true;
        }
      } catch (error) {
        report(error, run);
      }
    }
    pending.writing = undefined;
    // A finished run has had its last write: forget it.
    if (last !== undefined && FINISHED_RUN_STATES.includes(last.state) && runs.get(id) === pending) runs.delete(id);
  }

  return {
    changed(run) {
      let snapshot: RunRecord;
      try {
        snapshot = structuredClone(run);
      } catch (error) {
        report(error, run);
        return;
      }
      let pending = runs.get(snapshot.id);
      if (pending === undefined) {
        pending = { created: false, next: undefined, writing: undefined };
        runs.set(snapshot.id, pending);
      }
      pending.next = snapshot;
      pending.writing ??= drain(snapshot.id, pending);
    },
    async flush(runId) {
      for (;;) {
        const pending = runId === undefined ? [...runs.values()] : [runs.get(runId)];
        const writing = pending.map((entry) => entry?.writing).filter((promise) => promise !== undefined);
        if (writing.length === 0) return;
        await Promise.all(writing);
      }
    },
  };
}
