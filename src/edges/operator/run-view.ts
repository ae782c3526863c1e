/** @module The serialisers of composite runs for operator surfaces: the whole record (GET /api/runs/{id}) and the summary a list shows (GET /api/runs). */

import type { RunRecord, StepState } from '../../composite/run-record.js';
import type { RunSummaryView, RunView } from './api-schemas.js';

/** The record as the API shows it: as stored. */
export function toRunView(run: RunRecord): RunView {
  return run as RunView;
}

/** The run without its steps' details: counts by state, the questions asked, and the duration once finished. */
export function toRunSummary(run: RunRecord): RunSummaryView {
  const stepStates: Partial<Record<StepState, number>> = {};
  for (const step of run.steps) stepStates[step.state] = (stepStates[step.state] ?? 0) + 1;
  const summary: RunSummaryView = {
    id: run.id,
    composite: run.composite,
    hostSessionId: run.hostSessionId,
    state: run.state,
    startedAt: run.startedAt,
    steps: run.steps.length,
    stepStates,
    questionIds: [...new Set(run.steps.flatMap((step) => (step.questionId === undefined ? [] : [step.questionId])))],
  };
  if (run.principal !== undefined) summary.principal = run.principal;
  if (run.summary !== undefined) summary.summary = run.summary;
  if (run.finishedAt !== undefined) {
    summary.finishedAt = run.finishedAt;
    summary.durationMs = Math.max(0, Date.parse(run.finishedAt) - Date.parse(run.startedAt));
  }
  return summary;
}
