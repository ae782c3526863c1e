/** @module Runs a `resource` step: renders its URI and reads it from its upstream, with a timeout; JSON text is parsed for later templates. */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { ResourceStep } from './definition.js';
import type { StepRecord } from './run-record.js';
import { callWithTimeout, errorText } from './signals.js';
import type { StepEnv } from './step-env.js';
import type { StepOutcome } from './step-outcome.js';
import { abortReason } from './step-outcome.js';
import { render } from './template/render.js';

/** What later templates see of a resource step (`steps.<id>.text`, `.json`, `.contents`). */
export interface ResourceOutput {
  /** The text contents, joined with newlines. */
  text: string;
  /** The text parsed as JSON when it is JSON (a JSON mime type, or text that parses), else undefined. */
  json: unknown;
  contents: unknown[];
}

export function resourceOutput(result: JsonObject): ResourceOutput {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const texts = contents.filter((item): item is JsonObject => isObject(item) && typeof item.text === 'string');
  const text = texts.map((item) => item.text as string).join('\n');
  return { text, json: parseJson(text), contents };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function runResourceStep(step: ResourceStep, record: StepRecord, env: StepEnv): Promise<StepOutcome> {
  let uri: unknown;
  try {
    uri = render(step.uri, env.scope);
  } catch (error) {
    return { kind: 'failed', reason: `its uri could not be rendered: ${errorText(error)}` };
  }
  if (typeof uri !== 'string' || uri === '') return { kind: 'failed', reason: 'its uri did not render a non-empty string' };
  env.journal.update(record, { attempts: 1 });
  const target = `${step.upstream} ${uri}`;
  const read = await callWithTimeout(env.signal, step.timeoutMs, (signal) =>
    env.context.tools.readResource(step.upstream, uri as string, { signal, timeoutMs: step.timeoutMs, stepId: record.id }),
  );
  switch (read.kind) {
    case 'ok':
      return isObject(read.value) ? { kind: 'completed', output: resourceOutput(read.value) } : { kind: 'failed', reason: `${target}: no result object` };
    case 'timed-out':
      return { kind: 'failed', reason: `${target}: timed out after ${step.timeoutMs} ms` };
    case 'aborted':
      return { kind: 'aborted', reason: abortReason(env.signal) };
    case 'error':
      return { kind: 'failed', reason: `${target}: ${errorText(read.error)}` };
  }
}
