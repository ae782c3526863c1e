/** @module Keeps a composite's RunRecord: every change is written in place, timestamped, and reported to the observer. */

import type { ComposerLogger, RunObserver } from './ports.js';
import type { RunRecord, RunState, StepRecord } from './run-record.js';
import type { StepOutcome } from './step-outcome.js';

const FINAL_STEP_STATES: ReadonlySet<StepRecord['state']> = new Set(['completed', 'skipped', 'failed', 'aborted']);

export class RunJournal {
  constructor(
    readonly record: RunRecord,
    private readonly now: () => Date,
    private readonly logger: ComposerLogger,
    private readonly observer?: RunObserver,
  ) {}

  /** The current time, ISO. */
  time(): string {
    return this.now().toISOString();
  }

  /** Adds a pending step record. */
  addStep(id: string, kind: StepRecord['kind']): StepRecord {
    const step: StepRecord = { id, kind, state: 'pending' };
    this.record.steps.push(step);
    this.changed(step);
    return step;
  }

  start(step: StepRecord): void {
    if (isFinal(step)) return;
    step.state = 'running';
    step.startedAt = this.time();
    this.changed(step);
  }

  /** Writes fields on a step and reports the change (attempts, the question id…). */
  update(step: StepRecord, fields: Partial<StepRecord>): void {
    Object.assign(step, fields);
    this.changed(step);
  }

  /** Ends a step from its outcome; the first end wins (a step the run already aborted stays aborted). */
  settle(step: StepRecord, outcome: StepOutcome): void {
    switch (outcome.kind) {
      case 'completed':
        return this.end(step, 'completed', { output: 'recorded' in outcome ? outcome.recorded : outcome.output });
      case 'stop':
        return this.end(step, 'completed', { output: 'recorded' in outcome ? outcome.recorded : outcome.output, reason: outcome.reason });
      case 'skipped':
      case 'failed':
      case 'aborted':
        return this.end(step, outcome.kind, { reason: outcome.reason });
    }
  }

  /** Ends a step unless it has ended already. */
  end(step: StepRecord, state: StepRecord['state'], fields: Partial<StepRecord> = {}): void {
    if (isFinal(step)) return;
    Object.assign(step, fields);
    step.state = state;
    if (state !== 'skipped' || step.startedAt !== undefined) step.finishedAt = this.time();
    this.changed(step);
  }

  /** Ends the run. */
  finish(state: RunState, summary: string): void {
    this.record.state = state;
    this.record.summary = summary;
    this.record.finishedAt = this.time();
    this.changed(undefined);
  }

  /** Reports the run (and a step) to the observer; an observer that throws is logged, never fatal. */
  changed(step: StepRecord | undefined): void {
    if (!this.observer) return;
    try {
      this.observer.changed(this.record, step);
    } catch (error) {
      this.logger.log('error', 'composite run observer failed', { run: this.record.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
}

export function isFinal(step: StepRecord): boolean {
  return FINAL_STEP_STATES.has(step.state);
}
