/**
 * @module Runs a composite: its steps as a DAG (independent steps in parallel), under the step cap, the total
 * time limit and the host's cancel, recording every change, and gives the host's tools/call result.
 */

import { systemClock } from '../core/clock.js';
import { randomUUID } from 'node:crypto';

import { putKey } from '../protocol/json-clone.js';
import { errorResult, finalResult } from './composite-result.js';
import { stepGraphProblem } from './dag.js';
import type { CompositeDefinition, CompositeStep } from './definition.js';
import type { RunContext, RunOutcome } from './ports.js';
import { RunJournal } from './run-journal.js';
import type { RunRecord, RunState, StepRecord } from './run-record.js';
import { errorText, startTimer } from './signals.js';
import type { StepEnv } from './step-env.js';
import type { StepOutcome } from './step-outcome.js';
import { runStep } from './step-runner.js';

/** Longest `summary` kept on the record (the host's result itself is not cut). */
export const SUMMARY_MAX_CHARS = 4000;

/** Why the run ended early. `cause` is written on the steps it stopped or never started. */
interface Stop {
  state: RunState;
  /** The isError text the host gets; for `completed` (skip-remaining), the note added to the result. */
  text: string;
  cause: string;
}

/**
 * Runs `definition` for one tools/call. Never rejects: every failure is an isError result, and the record says
 * what happened. The run's state is `completed` (also after `skip-remaining`), `failed` (a step failed, the
 * definition is over a cap or not a DAG, the output did not render), `aborted` (the host cancelled, or an elicit
 * outcome chose `abort`), or `timed-out` (limits.totalTimeoutMs). Steps still running when the run ends are
 * aborted through their signal and recorded `aborted`; steps never started are recorded `skipped`, with why.
 */
export async function runComposite(definition: CompositeDefinition, context: RunContext): Promise<RunOutcome> {
  const now = context.now ?? (() => systemClock.date());
  const name = definition.name;
  const record: RunRecord = {
    id: (context.newId ?? randomUUID)(),
    composite: name,
    hostSessionId: context.hostSessionId,
    ...(context.principal === undefined ? {} : { principal: context.principal }),
    state: 'running',
    input: context.input,
    steps: [],
    startedAt: now().toISOString(),
  };
  const journal = new RunJournal(record, now, context.logger, context.observer);
  journal.changed(undefined);
  const end = (state: RunState, text: string, result: RunOutcome['result']): RunOutcome => {
    journal.finish(state, clip(text));
    context.logger.log(state === 'completed' ? 'info' : 'warn', `composite run ${state}`, { composite: name, run: record.id, summary: clip(text, 500) });
    return { record, result };
  };

  const { steps, limits } = definition;
  if (steps.length > limits.maxSteps) {
    const text = `Composite "${name}" has ${steps.length} steps, over its limit of ${limits.maxSteps}; nothing was run.`;
    return end('failed', text, errorResult(text));
  }
  const graph = stepGraphProblem(steps);
  if (graph) {
    const text = `Composite "${name}" cannot run: ${graph.reason}.`;
    return end('failed', text, errorResult(text));
  }

  const records = new Map<string, StepRecord>(steps.map((step) => [step.id, journal.addStep(step.id, step.kind)]));
  const recordOf = (step: CompositeStep): StepRecord => records.get(step.id) as StepRecord;
  const run = new AbortController();
  const outputs: Record<string, unknown> = {};
  const settled = new Set<string>();
  const started = new Set<string>();
  const running = new Map<string, Promise<void>>();
  let lastOutput: unknown;
  let stop: Stop | undefined;
  const stopWith = (reason: Stop): void => {
    if (stop) return;
    stop = reason;
    run.abort(new Error(reason.cause));
  };

  const onHostCancel = (): void => stopWith({ state: 'aborted', text: `Composite "${name}" was cancelled by the host.`, cause: 'the host cancelled the run' });
  if (context.signal.aborted) onHostCancel();
  else context.signal.addEventListener('abort', onHostCancel, { once: true });
  const stopTimer = startTimer(limits.totalTimeoutMs, () => {
    const still = [...running.keys()].map((id) => `"${id}"`).join(', ');
    stopWith({
      state: 'timed-out',
      text: `Composite "${name}" timed out: it ran longer than its total limit of ${limits.totalTimeoutMs} ms${still ? ` (still running: ${still})` : ''}.`,
      cause: `the run took longer than its total limit of ${limits.totalTimeoutMs} ms`,
    });
  });
  const stopped = new Promise<void>((resolve) => {
    if (run.signal.aborted) resolve();
    else run.signal.addEventListener('abort', () => resolve(), { once: true });
  });

  const onOutcome = (step: CompositeStep, outcome: StepOutcome): void => {
    if (stop) return; // the run has ended; a late result changes nothing
    switch (outcome.kind) {
      case 'completed':
        putKey(outputs, step.id, outcome.output);
        lastOutput = outcome.output;
        settled.add(step.id);
        return;
      case 'skipped':
        settled.add(step.id);
        return;
      case 'aborted':
        return;
      case 'failed':
        return stopWith({ state: 'failed', text: `Composite "${name}" failed at step "${step.id}": ${outcome.reason}`, cause: `step "${step.id}" failed` });
      case 'stop':
        putKey(outputs, step.id, outcome.output);
        lastOutput = outcome.output;
        settled.add(step.id);
        if (outcome.action === 'abort') {
          return stopWith({ state: 'aborted', text: `Composite "${name}" stopped at step "${step.id}": ${outcome.reason}.`, cause: `step "${step.id}" aborted the run: ${outcome.reason}` });
        }
        return stopWith({
          state: 'completed',
          text: `(Stopped early at step "${step.id}": ${outcome.reason}; the remaining steps were skipped.)`,
          cause: `step "${step.id}" skipped the remaining steps: ${outcome.reason}`,
        });
    }
  };

  try {
    while (!stop) {
      for (const step of steps) {
        if (started.has(step.id) || !step.dependsOn.every((dep) => settled.has(dep))) continue;
        started.add(step.id);
        const env: StepEnv = { composite: name, runId: record.id, limits, scope: { input: context.input, steps: snapshot(outputs) }, signal: run.signal, journal, context };
        const promise = runStep(step, recordOf(step), env)
          .then(
            (outcome) => onOutcome(step, outcome),
            (error: unknown) => onOutcome(step, { kind: 'failed', reason: errorText(error) }),
          )
          .finally(() => running.delete(step.id));
        running.set(step.id, promise);
      }
      if (running.size === 0) break;
      await Promise.race([...running.values(), stopped]);
    }
  } finally {
    stopTimer();
    context.signal.removeEventListener('abort', onHostCancel);
  }

  const ended = stop as Stop | undefined;
  // Whatever is still running was aborted by the run's signal; whatever never started never will.
  for (const step of record.steps) {
    if (step.state === 'running') journal.end(step, 'aborted', { reason: ended?.cause ?? 'the run ended' });
    else if (step.state === 'pending') journal.end(step, 'skipped', { reason: ended?.cause ?? 'its dependencies never finished' });
  }

  if (ended && ended.state !== 'completed') return end(ended.state, ended.text, errorResult(ended.text));
  const final = finalResult(definition, { input: context.input, steps: outputs }, lastOutput, ended?.text);
  if ('error' in final) {
    const text = `Composite "${name}" failed: ${final.error}`;
    return end('failed', text, errorResult(text));
  }
  return end('completed', resultText(final.result), final.result);
}

/** A copy of the outputs so far: a step's templates see the steps finished when it started. */
function snapshot(outputs: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [id, output] of Object.entries(outputs)) putKey(copy, id, output);
  return copy;
}

function resultText(result: RunOutcome['result']): string {
  const first: unknown = Array.isArray(result.content) ? result.content[0] : undefined;
  return typeof first === 'object' && first !== null && typeof (first as { text?: unknown }).text === 'string' ? (first as { text: string }).text : '';
}

function clip(text: string, max = SUMMARY_MAX_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
