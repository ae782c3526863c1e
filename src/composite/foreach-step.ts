/** @module Runs a `forEach` step: its inner step once per item of a rendered list, at most `concurrency` at once, in records `<id>[<i>]`. */

import type { ElicitStep, ForEachStep, ResourceStep, ToolStep } from './definition.js';
import type { StepRecord } from './run-record.js';
import { childController, errorText } from './signals.js';
import type { StepEnv } from './step-env.js';
import type { StepOutcome } from './step-outcome.js';
import { abortReason } from './step-outcome.js';
import { render } from './template/render.js';

/** Runs one inner step in its own record (the step runner, passed in so the two modules do not import each other). */
export type InnerRunner = (step: ToolStep | ResourceStep | ElicitStep, record: StepRecord, env: StepEnv) => Promise<StepOutcome>;

export async function runForEachStep(step: ForEachStep, record: StepRecord, env: StepEnv, runInner: InnerRunner): Promise<StepOutcome> {
  let items: unknown;
  try {
    items = render(step.items, env.scope);
  } catch (error) {
    return { kind: 'failed', reason: `its items could not be rendered: ${errorText(error)}` };
  }
  if (!Array.isArray(items)) return { kind: 'failed', reason: `its items did not render a list (got ${items === null ? 'null' : typeof items})` };
  if (items.length > env.limits.maxForEachItems) {
    return { kind: 'failed', reason: `it has ${items.length} items, over the limit of ${env.limits.maxForEachItems}` };
  }

  const list: unknown[] = items;
  const outputs: unknown[] = list.map(() => null);
  /** What the run record keeps of each item's output (an elicit item's secrets redacted). */
  const recorded: unknown[] = list.map(() => null);
  const { controller, dispose } = childController(env.signal);
  let ended: { index: number; outcome: StepOutcome } | undefined;
  let next = 0;

  const worker = async (): Promise<void> => {
    while (ended === undefined && !controller.signal.aborted && next < list.length) {
      const index = next++;
      const inner = env.journal.addStep(`${record.id}[${index}]`, step.step.kind);
      const outcome = await runInner(step.step, inner, { ...env, scope: { ...env.scope, item: list[index], index }, signal: controller.signal });
      if (outcome.kind === 'completed' || outcome.kind === 'stop') {
        outputs[index] = outcome.output;
        recorded[index] = 'recorded' in outcome ? outcome.recorded : outcome.output;
      }
      if (outcome.kind === 'stop' || outcome.kind === 'failed' || (outcome.kind === 'aborted' && !env.signal.aborted)) {
        if (ended === undefined) {
          ended = { index, outcome };
          controller.abort(new Error(`item ${index} of step "${record.id}" ended the loop`));
        }
      }
    }
  };
  try {
    const width = Math.max(1, Math.min(Math.floor(step.concurrency) || 1, list.length));
    await Promise.all(Array.from({ length: list.length === 0 ? 0 : width }, worker));
  } finally {
    dispose();
  }

  if (env.signal.aborted) return { kind: 'aborted', reason: abortReason(env.signal) };
  const end = ended as { index: number; outcome: StepOutcome } | undefined;
  if (end?.outcome.kind === 'failed') return { kind: 'failed', reason: `item ${end.index}: ${end.outcome.reason}` };
  if (end?.outcome.kind === 'stop') return { kind: 'stop', action: end.outcome.action, output: outputs, recorded, reason: `item ${end.index}: ${end.outcome.reason}` };
  if (end) return { kind: 'failed', reason: `item ${end.index} was stopped` };
  return { kind: 'completed', output: outputs, recorded };
}
