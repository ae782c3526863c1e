/** @module What the composer needs from the gateway, as interfaces of the core's own types: calling upstream tools, asking people, reporting progress, keeping the run record. */

import type { JsonObject } from '../protocol/jsonrpc.js';
import type { ElicitationRequester } from './elicitation-seam.js';
import type { RunRecord, StepRecord } from './run-record.js';

export interface ToolCaller {
  /**
   * Calls `tool` (as `upstream` names it) with `args`. Resolves with the tool result (`content`, optional
   * `structuredContent`, `isError`); rejects when the call fails (upstream down, protocol error, timeout,
   * `signal` aborted). `stepId` names the step for logs and attribution.
   */
  callTool(upstream: string, tool: string, args: JsonObject, options: { signal: AbortSignal; timeoutMs: number; stepId: string }): Promise<JsonObject>;
  /** Reads resource `uri` from `upstream`; resolves with the read result (`contents`), rejects as callTool does. */
  readResource(upstream: string, uri: string, options: { signal: AbortSignal; timeoutMs: number; stepId: string }): Promise<JsonObject>;
}

export interface RunObserver {
  /** The run or one of its steps changed (it is the same record, updated in place): progress and persistence. */
  changed(run: RunRecord, step: StepRecord | undefined): void;
}

export interface ComposerLogger {
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void;
}

export interface RunContext {
  input: JsonObject;
  /** Aborted when the host cancels the call (or its session closes). */
  signal: AbortSignal;
  tools: ToolCaller;
  asker: ElicitationRequester;
  observer?: RunObserver;
  logger: ComposerLogger;
  hostSessionId: string;
  /** The calling host's principal, as a person reads it (absent: hosts do not authenticate). */
  principal?: string;
  now?: () => Date;
  newId?: () => string;
}

/** What a finished run gives: the record, and the tools/call result the host gets. */
export interface RunOutcome {
  record: RunRecord;
  result: JsonObject;
}
