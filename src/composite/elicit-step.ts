/**
 * @module Runs an `elicit` step: renders the question, holds it to the limits every elicitation path has
 * (timeout cap, schema size/depth/shape, answer size/depth/validity), asks through the seam, and maps the
 * outcome (accept, decline, cancel, timeout) to the step's `on…` action.
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { contentAtRest } from '../protocol/secret-fields.js';
import { validateElicitAnswer } from '../translation/elicitation-answer.js';
import { checkAnswerLimits, checkRequestLimits } from '../translation/elicitation-limits.js';
import { checkRequestedSchema } from '../translation/elicitation-schema.js';
import type { ElicitStep, OutcomeAction } from './definition.js';
import { ELICIT_TIMEOUT_CAP_MS } from './definition.js';
import type { ElicitationResult } from './elicitation-seam.js';
import type { StepRecord } from './run-record.js';
import { childController, errorText, raceSignal, startTimer } from './signals.js';
import type { StepEnv } from './step-env.js';
import type { StepOutcome } from './step-outcome.js';
import { abortReason } from './step-outcome.js';
import { render, renderText } from './template/render.js';

export type ElicitOutcome = 'accept' | 'decline' | 'cancel' | 'timeout';

/** What later templates see of an elicit step: the outcome, and the answer on accept (`{}` otherwise). */
export interface ElicitOutput {
  action: ElicitOutcome;
  content: JsonObject;
}

/** The timeout an elicit step really waits: its own, cut to ELICIT_TIMEOUT_CAP_MS. */
export function effectiveElicitTimeout(timeoutMs: number): { timeoutMs: number; capped: boolean } {
  if (!Number.isFinite(timeoutMs) || timeoutMs > ELICIT_TIMEOUT_CAP_MS) return { timeoutMs: ELICIT_TIMEOUT_CAP_MS, capped: true };
  return { timeoutMs: Math.max(0, timeoutMs), capped: false };
}

export function actionFor(step: ElicitStep, outcome: ElicitOutcome): OutcomeAction {
  switch (outcome) {
    case 'accept':
      return step.onAccept;
    case 'decline':
      return step.onDecline;
    case 'cancel':
      return step.onCancel;
    case 'timeout':
      return step.onTimeout;
  }
}

const PAST: Record<ElicitOutcome, string> = { accept: 'accepted', decline: 'declined', cancel: 'cancelled', timeout: 'timed out' };

/** "the question "…" was declined by operator:alice" / "… timed out after 300000 ms with no answer". */
export function describeOutcome(message: string, outcome: ElicitOutcome, answeredBy: string | undefined, timeoutMs: number): string {
  const question = `the question ${JSON.stringify(clip(message))}`;
  if (outcome === 'timeout') return `${question} timed out after ${timeoutMs} ms with no answer`;
  return `${question} was ${PAST[outcome]} by ${answeredBy ?? 'the person asked'}`;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

export async function runElicitStep(step: ElicitStep, record: StepRecord, env: StepEnv): Promise<StepOutcome> {
  const { logger } = env.context;
  const where = { composite: env.composite, run: env.runId, step: record.id };

  let message: string;
  let schema: unknown;
  try {
    message = renderText(step.message, env.scope);
    schema = render(step.requestedSchema, env.scope);
  } catch (error) {
    return { kind: 'failed', reason: `its question could not be rendered: ${errorText(error)}` };
  }
  // The same checks as every elicitation path, before anyone is asked.
  const limit = checkRequestLimits({ requestedSchema: schema });
  if (limit !== undefined) return { kind: 'failed', reason: `its question breaks a limit: ${limit}` };
  const problem = checkRequestedSchema({ requestedSchema: schema });
  if (problem !== undefined) return { kind: 'failed', reason: `its question is not a valid form: ${problem.path} ${problem.reason}` };
  const requestedSchema = schema as JsonObject;

  const { timeoutMs, capped } = effectiveElicitTimeout(step.timeoutMs);
  if (capped) {
    logger.log('warn', `elicit step timeout ${step.timeoutMs} ms is above the ${ELICIT_TIMEOUT_CAP_MS} ms cap; waiting ${ELICIT_TIMEOUT_CAP_MS} ms`, { ...where, requestedMs: step.timeoutMs, cappedMs: ELICIT_TIMEOUT_CAP_MS });
  }

  const { controller, dispose } = childController(env.signal);
  let timedOut = false;
  const stopTimer = startTimer(timeoutMs, () => {
    timedOut = true;
    controller.abort(new Error(`no answer within ${timeoutMs} ms`));
  });
  let result: ElicitationResult | undefined;
  try {
    const asked = env.context.asker.elicit({ message, requestedSchema, meta: { composite: env.composite, step: record.id, run: env.runId } }, { signal: controller.signal, timeoutMs });
    result = await raceSignal(asked, controller.signal);
  } catch (error) {
    if (!timedOut) {
      if (env.signal.aborted) return { kind: 'aborted', reason: abortReason(env.signal) };
      return { kind: 'failed', reason: `the question could not be asked: ${errorText(error)}` };
    }
  } finally {
    stopTimer();
    dispose();
  }
  // A timeout is the step's own timer firing, whatever the requester did when its signal aborted.
  if (timedOut) result = undefined;

  let outcome: ElicitOutcome;
  let content: JsonObject = {};
  if (result === undefined) {
    outcome = 'timeout';
  } else {
    if (!isObject(result) || !['accept', 'decline', 'cancel'].includes(result.action as string)) {
      return { kind: 'failed', reason: 'the answer has no valid action (accept, decline or cancel)' };
    }
    outcome = result.action;
    env.journal.update(record, {
      ...(typeof result.answeredBy === 'string' ? { answeredBy: result.answeredBy } : {}),
      ...(typeof result.questionId === 'string' ? { questionId: result.questionId } : {}),
    });
    if (outcome === 'accept') {
      const raw: unknown = result.content;
      if (raw !== undefined && !isObject(raw)) {
        logger.log('warn', 'elicit step answer content is not an object; treating it as empty content', { ...where, contentType: Array.isArray(raw) ? 'array' : raw === null ? 'null' : typeof raw });
      } else if (raw !== undefined) {
        content = raw;
      }
      const answerLimit = checkAnswerLimits({ content });
      if (answerLimit !== undefined) return { kind: 'failed', reason: `its answer breaks a limit: ${answerLimit}` };
      const verdict = validateElicitAnswer({ action: 'accept', content }, requestedSchema);
      if (!verdict.ok) return { kind: 'failed', reason: `its answer does not fit the requested schema: ${verdict.reason}` };
    }
  }

  const answeredBy = record.answeredBy;
  // Later steps see the answer as given; the run record (stored, served) keeps secret fields "[redacted]".
  const atRest = contentAtRest({ requestedSchema }, content);
  env.journal.update(record, { outcome, ...(outcome === 'accept' ? { answer: atRest } : {}) });
  const output: ElicitOutput = { action: outcome, content };
  const recorded: ElicitOutput = { action: outcome, content: atRest };
  const action = actionFor(step, outcome);
  const told = describeOutcome(message, outcome, answeredBy, timeoutMs);
  if (action === 'continue') return { kind: 'completed', output, recorded };
  return { kind: 'stop', action, output, recorded, reason: told };
}
