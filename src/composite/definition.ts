/** @module What a composite tool is, in the core's own terms: its steps, their kinds and their settings, as the config defines them. */

import type { JsonObject } from '../protocol/jsonrpc.js';

/** What an elicit step does after each outcome: go on, stop with an isError result, or return what the run has. */
export type OutcomeAction = 'continue' | 'abort' | 'skip-remaining';

/** A string that may hold `{{ … }}` templates (template.ts), or a JSON value whose strings may. */
export type Templated = unknown;

interface StepBase {
  /** Unique within the composite: later steps and the output refer to it. */
  id: string;
  /** Steps that must have finished (or been skipped) first. Steps with no path between them run in parallel. */
  dependsOn: string[];
  /** A template; the step is skipped when it renders falsy (false, '', 0, null, empty list, 'false'). */
  condition?: string;
}

export interface ToolStep extends StepBase {
  kind: 'tool';
  /** The configured upstream name and the tool as that upstream names it. */
  upstream: string;
  tool: string;
  /** The arguments, templated from `input` and earlier steps. */
  arguments: Templated;
  /** Attempts after the first (0: none), waiting backoffMs, doubling each time. */
  retry: { count: number; backoffMs: number };
  /** Per attempt. */
  timeoutMs: number;
}

export interface ResourceStep extends StepBase {
  kind: 'resource';
  /** The configured upstream name; the URI is read from it. */
  upstream: string;
  /** The resource URI, templated. */
  uri: string;
  timeoutMs: number;
}

export interface ElicitStep extends StepBase {
  kind: 'elicit';
  message: string;
  requestedSchema: Templated;
  /** Capped at ELICIT_TIMEOUT_CAP_MS with a logged warning. */
  timeoutMs: number;
  onAccept: OutcomeAction;
  onDecline: OutcomeAction;
  onCancel: OutcomeAction;
  onTimeout: OutcomeAction;
}

export interface ForEachStep extends StepBase {
  kind: 'forEach';
  /** A template that must render a list (an earlier step's output). */
  items: string;
  /** How many items run at once. */
  concurrency: number;
  /** The step run for each item; its templates also see `item` and `index`. Its id names it in the run record. */
  step: ToolStep | ResourceStep | ElicitStep;
}

export type CompositeStep = ToolStep | ResourceStep | ElicitStep | ForEachStep;

export interface CompositeLimits {
  /** Most steps in one composite (a forEach and its inner step count as one). */
  maxSteps: number;
  /** Most items one forEach runs. */
  maxForEachItems: number;
  /** The whole run, from call to result. */
  totalTimeoutMs: number;
}

export interface CompositeDefinition {
  /** The tool name hosts see. */
  name: string;
  description: string;
  inputSchema: JsonObject;
  /** When set: the tool's outputSchema, and `output` renders its structuredContent. */
  outputSchema?: JsonObject;
  /** A template rendered at the end (sees `input` and `steps`); its result is the structuredContent (and the text). */
  output?: Templated;
  steps: CompositeStep[];
  limits: CompositeLimits;
}

export const COMPOSITE_DEFAULTS = {
  maxSteps: 50,
  maxForEachItems: 100,
  totalTimeoutMs: 30 * 60 * 1000,
  stepTimeoutMs: 60 * 1000,
  elicitTimeoutMs: 5 * 60 * 1000,
  concurrency: 4,
  retryCount: 0,
  backoffMs: 500,
} as const;

/** The longest an elicit step may wait; a longer `timeout` is cut to this, with a logged warning. */
export const ELICIT_TIMEOUT_CAP_MS = 10 * 60 * 1000;
