/** @module Test doubles for the composer's ports: a recording tool caller, scripted elicitation requesters, a capturing logger, definition builders. */

import type { JsonObject } from '../../protocol/jsonrpc.js';
import type { CompositeDefinition, CompositeStep, ElicitStep, ForEachStep, ToolStep } from '../definition.js';
import { COMPOSITE_DEFAULTS } from '../definition.js';
import type { ElicitationRequest, ElicitationRequester, ElicitationResult } from '../elicitation-seam.js';
import type { ComposerLogger, RunContext, ToolCaller } from '../ports.js';
import type { RunRecord, StepRecord } from '../run-record.js';

export interface ToolCall {
  upstream: string;
  tool: string;
  args: JsonObject;
  stepId: string;
  timeoutMs: number;
  signal: AbortSignal;
}

type ToolHandler = (args: JsonObject, call: ToolCall) => Promise<JsonObject> | JsonObject;

/** A ToolCaller that records every call and answers from `handlers` (keyed by tool name; default: echo the args as text). */
export function fakeTools(handlers: Record<string, ToolHandler> = {}): ToolCaller & { calls: ToolCall[] } {
  const calls: ToolCall[] = [];
  return {
    calls,
    async callTool(upstream, tool, args, options) {
      const call: ToolCall = { upstream, tool, args, stepId: options.stepId, timeoutMs: options.timeoutMs, signal: options.signal };
      calls.push(call);
      const handler = handlers[tool];
      if (handler) return handler(args, call);
      return { content: [{ type: 'text', text: `${tool} ok ${JSON.stringify(args)}` }] };
    },
    async readResource(upstream, uri, options) {
      const call: ToolCall = { upstream, tool: `read:${uri}`, args: {}, stepId: options.stepId, timeoutMs: options.timeoutMs, signal: options.signal };
      calls.push(call);
      const handler = handlers[`read:${uri}`];
      if (handler) return handler({}, call);
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ uri }) }] };
    },
  };
}

/** A text tool result. */
export function textOf(text: string, extra: JsonObject = {}): JsonObject {
  return { content: [{ type: 'text', text }], ...extra };
}

export interface AskRecord {
  request: ElicitationRequest;
  timeoutMs: number;
  signal: AbortSignal;
}

/** An ElicitationRequester answering every question with `answer` (which may wait on the signal), recording what it was asked. */
export function fakeAsker(answer: (request: ElicitationRequest, options: { signal: AbortSignal; timeoutMs: number }) => Promise<ElicitationResult>): ElicitationRequester & { asked: AskRecord[] } {
  const asked: AskRecord[] = [];
  return {
    asked,
    elicit(request, options) {
      asked.push({ request, timeoutMs: options.timeoutMs, signal: options.signal });
      return answer(request, options);
    },
  };
}

/** Answers when the signal aborts with a `cancel` — what a real requester does when its question is withdrawn. */
export function cancelOnAbort(signal: AbortSignal): Promise<ElicitationResult> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve({ action: 'cancel' });
    else signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
  });
}

/** Never settles unless the signal aborts, then rejects with its reason. */
export function waitForAbort<T>(signal: AbortSignal): Promise<T> {
  return new Promise<T>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export function captureLogger(): ComposerLogger & { lines: { level: string; message: string; fields?: Record<string, unknown> }[] } {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  return { lines, log: (level, message, fields) => lines.push({ level, message, ...(fields ? { fields } : {}) }) };
}

export function toolStep(id: string, fields: Partial<ToolStep> = {}): ToolStep {
  return {
    kind: 'tool',
    id,
    dependsOn: [],
    upstream: 'ops',
    tool: id,
    arguments: {},
    retry: { count: 0, backoffMs: COMPOSITE_DEFAULTS.backoffMs },
    timeoutMs: 5_000,
    ...fields,
  };
}

export const APPROVAL_SCHEMA: JsonObject = {
  type: 'object',
  properties: { confirm: { type: 'boolean' }, ticket: { type: 'string' } },
  required: ['confirm'],
};

export function elicitStep(id: string, fields: Partial<ElicitStep> = {}): ElicitStep {
  return {
    kind: 'elicit',
    id,
    dependsOn: [],
    message: 'Approve?',
    requestedSchema: APPROVAL_SCHEMA,
    timeoutMs: 5_000,
    onAccept: 'continue',
    onDecline: 'continue',
    onCancel: 'continue',
    onTimeout: 'continue',
    ...fields,
  };
}

export function forEachStep(id: string, inner: ToolStep | ElicitStep, fields: Partial<ForEachStep> = {}): ForEachStep {
  return { kind: 'forEach', id, dependsOn: [], items: '{{ input.items }}', concurrency: 2, step: inner, ...fields };
}

export function composite(steps: CompositeStep[], fields: Partial<CompositeDefinition> = {}): CompositeDefinition {
  return {
    name: 'test_composite',
    description: 'a composite under test',
    inputSchema: { type: 'object' },
    steps,
    limits: { maxSteps: COMPOSITE_DEFAULTS.maxSteps, maxForEachItems: COMPOSITE_DEFAULTS.maxForEachItems, totalTimeoutMs: 10_000 },
    ...fields,
  };
}

/** A RunContext over fakes; `changes` collects every observer call (the step's id and state, or the run's state). */
export function fakeContext(fields: Partial<RunContext> = {}): RunContext & { logger: ReturnType<typeof captureLogger>; changes: string[] } {
  const changes: string[] = [];
  return {
    input: {},
    signal: new AbortController().signal,
    tools: fakeTools(),
    asker: fakeAsker(() => Promise.resolve({ action: 'accept', content: { confirm: true } })),
    hostSessionId: 'host-1',
    observer: { changed: (run: RunRecord, step: StepRecord | undefined) => changes.push(step ? `${step.id}:${step.state}` : `run:${run.state}`) },
    ...fields,
    logger: captureLogger(),
    changes,
  };
}

export function stepOf(record: RunRecord, id: string): StepRecord {
  const step = record.steps.find((s) => s.id === id);
  if (!step) throw new Error(`no step record ${id}`);
  return step;
}

export function textOfResult(result: JsonObject): string {
  const first = (result.content as { text?: string }[] | undefined)?.[0];
  return first?.text ?? '';
}
