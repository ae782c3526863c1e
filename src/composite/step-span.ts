/** @module The span of one composite step (`composite.step <id>`, a child of the composite's host request): its kind, and how it ended. */

import { tracer } from '../core/tracing/trace-port.js';
import type { CompositeStep } from './definition.js';
import type { StepOutcome } from './step-outcome.js';

/** Runs `run` (the step's work) inside the step's span; the outcome's kind is recorded, a failed one fails the span. */
export async function traceStep(step: CompositeStep, run: () => Promise<StepOutcome>): Promise<StepOutcome> {
  const traces = tracer();
  if (!traces.enabled) return run();
  const span = traces.startSpan(`composite.step ${step.id}`, {
    attributes: {
      'switchboard.step.id': step.id,
      'switchboard.step.kind': step.kind,
      ...(step.kind === 'tool' ? { 'gen_ai.tool.name': step.tool, 'switchboard.upstream': step.upstream } : {}),
    },
  });
  try {
    const outcome = await traces.within(span, run);
    span.setAttributes({ 'switchboard.step.outcome': outcome.kind });
    if (outcome.kind === 'failed' || outcome.kind === 'aborted') span.fail(outcome.reason, outcome.kind);
    return outcome;
  } finally {
    span.end();
  }
}
