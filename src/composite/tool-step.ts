/** @module Runs a `tool` step: renders its arguments, calls the upstream tool with a per-attempt timeout, retries with exponential backoff. */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { ToolStep } from './definition.js';
import type { StepRecord } from './run-record.js';
import { callWithTimeout, errorText, sleep } from './signals.js';
import type { StepEnv } from './step-env.js';
import type { StepOutcome } from './step-outcome.js';
import { abortReason } from './step-outcome.js';
import { render } from './template/render.js';

/** What later templates see of a tool step (`steps.<id>.text`, `.structured`, `.isError`, `.content`). */
export interface ToolOutput {
  text: string;
  structured: unknown;
  isError: boolean;
  content: unknown[];
}

/** The text blocks of a tool result's content, joined with newlines. */
export function resultText(result: JsonObject): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content
    .filter((block): block is JsonObject => isObject(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n');
}

export function toolOutput(result: JsonObject): ToolOutput {
  return {
    text: resultText(result),
    structured: result.structuredContent,
    isError: result.isError === true,
    content: Array.isArray(result.content) ? result.content : [],
  };
}

/** The wait before retry `n` (1-based): backoffMs, doubling each time. */
export function backoffDelay(backoffMs: number, retry: number): number {
  return Math.max(0, backoffMs) * 2 ** Math.max(0, retry - 1);
}

type Attempt = { ok: true; output: ToolOutput } | { ok: false; reason: string; aborted: boolean };

export async function runToolStep(step: ToolStep, record: StepRecord, env: StepEnv): Promise<StepOutcome> {
  let args: unknown;
  try {
    args = render(step.arguments ?? {}, env.scope);
  } catch (error) {
    return { kind: 'failed', reason: `its arguments could not be rendered: ${errorText(error)}` };
  }
  if (args === undefined || args === null) args = {};
  if (!isObject(args)) return { kind: 'failed', reason: 'its arguments did not render an object' };

  const retries = Math.max(0, Math.floor(step.retry.count));
  const target = `${step.upstream}/${step.tool}`;
  let lastError = '';
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    if (env.signal.aborted) return { kind: 'aborted', reason: abortReason(env.signal) };
    env.journal.update(record, { attempts: attempt });
    const result = await callOnce(step, record.id, args, env);
    if (result.ok) return { kind: 'completed', output: result.output };
    if (result.aborted) return { kind: 'aborted', reason: abortReason(env.signal) };
    lastError = result.reason;
    if (attempt <= retries) {
      const delay = backoffDelay(step.retry.backoffMs, attempt);
      env.context.logger.log('info', 'composite tool step failed; retrying', { composite: env.composite, run: env.runId, step: record.id, tool: target, attempt, delayMs: delay, error: lastError });
      env.journal.update(record, { reason: `attempt ${attempt} failed: ${lastError}` });
      if (!(await sleep(delay, env.signal))) return { kind: 'aborted', reason: abortReason(env.signal) };
    }
  }
  const attempts = retries + 1;
  return { kind: 'failed', reason: `${target} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${lastError}` };
}

async function callOnce(step: ToolStep, stepId: string, args: JsonObject, env: StepEnv): Promise<Attempt> {
  const call = await callWithTimeout(env.signal, step.timeoutMs, (signal) => env.context.tools.callTool(step.upstream, step.tool, args, { signal, timeoutMs: step.timeoutMs, stepId }));
  switch (call.kind) {
    case 'ok': {
      const result = call.value;
      if (!isObject(result)) return { ok: false, reason: 'the tool gave no result object', aborted: false };
      if (result.isError === true) return { ok: false, reason: `the tool returned an error: ${resultText(result) || '(no text)'}`, aborted: false };
      return { ok: true, output: toolOutput(result) };
    }
    case 'timed-out':
      return { ok: false, reason: `timed out after ${step.timeoutMs} ms`, aborted: false };
    case 'aborted':
      return { ok: false, reason: abortReason(env.signal), aborted: true };
    case 'error':
      return { ok: false, reason: errorText(call.error), aborted: false };
  }
}
