/** @module Runs one step of any kind in its record: the condition, the start, the kind's own work, and the end written from its outcome. */

import type { CompositeStep } from './definition.js';
import { runElicitStep } from './elicit-step.js';
import { runForEachStep } from './foreach-step.js';
import { traceStep } from './step-span.js';
import type { StepRecord } from './run-record.js';
import { errorText } from './signals.js';
import type { StepEnv } from './step-env.js';
import type { StepOutcome } from './step-outcome.js';
import { abortReason } from './step-outcome.js';
import { truthy } from './template/evaluate.js';
import { render } from './template/render.js';
import { runResourceStep } from './resource-step.js';
import { runToolStep } from './tool-step.js';

/** Runs `step` in `record` and ends the record; never rejects (a thrown error is a failed outcome). */
export async function runStep(step: CompositeStep, record: StepRecord, env: StepEnv): Promise<StepOutcome> {
  const outcome = await traceStep(step, () => outcomeOf(step, record, env));
  env.journal.settle(record, outcome);
  return outcome;
}

async function outcomeOf(step: CompositeStep, record: StepRecord, env: StepEnv): Promise<StepOutcome> {
  if (env.signal.aborted) return { kind: 'aborted', reason: abortReason(env.signal) };
  if (step.condition !== undefined) {
    try {
      if (!truthy(render(step.condition, env.scope))) return { kind: 'skipped', reason: `its condition ${JSON.stringify(step.condition)} is false` };
    } catch (error) {
      return { kind: 'failed', reason: `its condition could not be evaluated: ${errorText(error)}` };
    }
  }
  env.journal.start(record);
  try {
    switch (step.kind) {
      case 'tool':
        return await runToolStep(step, record, env);
      case 'resource':
        return await runResourceStep(step, record, env);
      case 'elicit':
        return await runElicitStep(step, record, env);
      case 'forEach':
        return await runForEachStep(step, record, env, runStep);
    }
  } catch (error) {
    if (env.signal.aborted) return { kind: 'aborted', reason: abortReason(env.signal) };
    return { kind: 'failed', reason: errorText(error) };
  }
}
