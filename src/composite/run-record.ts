/** @module The record of one composite run: every step with its timings, outcome, output or error, and the questions it asked. */

import type { JsonObject } from '../protocol/jsonrpc.js';

export type RunState = 'running' | 'completed' | 'aborted' | 'failed' | 'timed-out';
export type StepState = 'pending' | 'running' | 'completed' | 'skipped' | 'failed' | 'aborted';

export interface StepRecord {
  /** The step id; forEach items are `<id>[<index>]`. */
  id: string;
  kind: 'tool' | 'resource' | 'elicit' | 'forEach';
  state: StepState;
  /** ISO times. */
  startedAt?: string;
  finishedAt?: string;
  /** Tool steps: attempts made. */
  attempts?: number;
  /** Why it was skipped, failed or aborted (condition false, skip-remaining, the error text…). */
  reason?: string;
  /** Elicit steps: the outcome (accept, decline, cancel, timeout) and the answer content. */
  outcome?: 'accept' | 'decline' | 'cancel' | 'timeout';
  answer?: JsonObject;
  /** Elicit steps: who answered (as the requester reported it). */
  answeredBy?: string;
  /** The desk's question id, when the step asked through the desk. */
  questionId?: string;
  /** What later templates see of this step. */
  output?: unknown;
}

export interface RunRecord {
  /** Stable, unguessable id. */
  id: string;
  composite: string;
  /** The host session that called it (the gateway's internal id, as on questions). */
  hostSessionId: string;
  /** Who called it, as a person reads it (the host's verified principal), when hosts authenticate. */
  principal?: string;
  state: RunState;
  input: JsonObject;
  steps: StepRecord[];
  /** The result the host got (its text), or why it failed. */
  summary?: string;
  startedAt: string;
  finishedAt?: string;
}
