/** @module Test helpers for run stores: composite run records to store, shaped like the composer's. */

import type { RunRecord, StepRecord } from '../../composite/run-record.js';

let counter = 0;

/**
 * A `safe_restart` run started at `startedAt` (default: the fixed start time of `manualClock`): the lookup done, the
 * approval asked and accepted, the restart running, the summary pending. Override anything.
 */
export function makeRun(overrides: Partial<RunRecord> = {}): RunRecord {
  counter += 1;
  const startedAt = overrides.startedAt ?? '2026-03-01T09:00:00.000Z';
  const at = (seconds: number) => new Date(Date.parse(startedAt) + seconds * 1000).toISOString();
  const steps: StepRecord[] = [
    { id: 'lookup', kind: 'tool', state: 'completed', startedAt: at(0), finishedAt: at(1), attempts: 1, output: { service: 'payments-api', severity: 2 } },
    {
      id: 'approve',
      kind: 'elicit',
      state: 'completed',
      startedAt: at(1),
      finishedAt: at(30),
      outcome: 'accept',
      answer: { confirm: true, ticket: 'CHG-2291' },
      questionId: `q-run-${counter}-${Math.random().toString(36).slice(2, 10)}`,
      output: { confirm: true, ticket: 'CHG-2291' },
    },
    { id: 'restart', kind: 'tool', state: 'running', startedAt: at(30), attempts: 2 },
    { id: 'summarize', kind: 'tool', state: 'pending' },
  ];
  return {
    id: `run-${counter}-${Math.random().toString(36).slice(2, 10)}`,
    composite: 'safe_restart',
    hostSessionId: 'host-1',
    state: 'running',
    input: { incident: 'INC-7' },
    steps,
    startedAt,
    ...overrides,
  };
}

/** The same run, finished: every step done, the host's result summarised. */
export function finishRun(run: RunRecord, finishedAt: string, state: RunRecord['state'] = 'completed'): RunRecord {
  return {
    ...run,
    state,
    steps: run.steps.map((step) => (step.state === 'running' || step.state === 'pending' ? { ...step, state: 'completed', startedAt: step.startedAt ?? finishedAt, finishedAt } : step)),
    summary: 'RESTARTED payments-api under CHG-2291',
    finishedAt,
  };
}
