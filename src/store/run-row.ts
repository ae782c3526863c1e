/** @module A composite run as one row (columns to filter and order on, the whole record as JSON text), shared by every run store, and its strict reading back. */

import type { RunRecord, RunState, StepRecord, StepState } from '../composite/run-record.js';
import type { RunFilter, RunStoreErrorCode } from '../composite/run-store.js';
import { RunStoreError } from '../composite/run-store.js';
import { isObject } from '../protocol/jsonrpc.js';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from './list-filter.js';
import { isQuestionStoreError } from './store-error.js';
import { isCanonicalTimestamp, normalizeBound } from './timestamps.js';

/** Column names are the SQL ones; every value is text or NULL, so any store can hold a row as it is. */
export interface RunRow {
  id: string;
  composite: string;
  state: string;
  host_session: string;
  started_at: string;
  finished_at: string | null;
  /** The whole RunRecord as JSON text. */
  record: string;
}

export const RUN_COLUMNS = ['id', 'composite', 'state', 'host_session', 'started_at', 'finished_at', 'record'] as const satisfies readonly (keyof RunRow)[];

/** A question a run's step asked: what the store keeps beside the run to find it from the question. */
export interface RunQuestionLink {
  questionId: string;
  stepId: string;
}

// Each record must name every member of its type and nothing else, so a new member fails to compile here.
const runStates: Record<RunState, true> = { running: true, completed: true, aborted: true, failed: true, 'timed-out': true };
const stepStates: Record<StepState, true> = { pending: true, running: true, completed: true, skipped: true, failed: true, aborted: true };
const stepKinds: Record<StepRecord['kind'], true> = { tool: true, resource: true, elicit: true, forEach: true };
const outcomes: Record<NonNullable<StepRecord['outcome']>, true> = { accept: true, decline: true, cancel: true, timeout: true };

function member<T extends string>(set: Record<T, true>) {
  return (value: unknown): value is T => typeof value === 'string' && Object.hasOwn(set, value);
}

export const isRunState = member(runStates);
export const isStepState = member(stepStates);
const isStepKind = member(stepKinds);
const isOutcome = member(outcomes);

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * The row for a run. Refuses (`invalid-record`) anything that would not read back as the same record (a field of the
 * wrong type, an unknown state, a time not as toISOString() writes it, a value JSON cannot hold), so a store never
 * writes what it cannot return.
 */
export function encodeRun(record: RunRecord): RunRow {
  if (!isObject(record)) throw new RunStoreError('invalid-record', 'a run must be an object');
  const id = typeof record.id === 'string' ? record.id : String(record.id);
  let text: string | undefined;
  try {
    text = JSON.stringify(record);
  } catch (error) {
    throw new RunStoreError('invalid-record', `run ${id} cannot be stored: it is not JSON (${(error as Error).message})`, { runId: id, cause: error });
  }
  if (text === undefined) throw new RunStoreError('invalid-record', `run ${id} cannot be stored: it is not JSON`, { runId: id });
  const row: RunRow = {
    id,
    composite: record.composite,
    state: record.state,
    host_session: record.hostSessionId,
    started_at: record.startedAt,
    finished_at: record.finishedAt ?? null,
    record: text,
  };
  decodeRun(row, 'invalid-record');
  // What JSON drops silently (an undefined, a function, a symbol) changes the record: refuse it rather than store less.
  assertJsonExact(record, id, 'run');
  return row;
}

/** Refuses values that JSON.stringify would drop or alter rather than fail on. */
function assertJsonExact(value: unknown, runId: string, path: string): void {
  const fail = (problem: string): never => {
    throw new RunStoreError('invalid-record', `run ${runId} cannot be stored: ${path} ${problem}`, { runId });
  };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(`is ${String(value)}, which JSON cannot hold`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (item === undefined) fail(`[${index}] is undefined, which JSON cannot hold`);
      assertJsonExact(item, runId, `${path}[${index}]`);
    });
    return;
  }
  if (isObject(value)) {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) fail('is not a plain object');
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined) continue; // An absent optional field, written as undefined: left out either way.
      assertJsonExact(child, runId, `${path}.${key}`);
    }
    return;
  }
  fail(`is a ${typeof value}, which JSON cannot hold`);
}

/**
 * The record a row holds. Checks every field, so a hand-edited or damaged row gives a `corrupt-record` error naming
 * the run and the field (or `code`, when checking what a caller asked to write) instead of a half-valid record.
 */
export function decodeRun(stored: object, code: RunStoreErrorCode = 'corrupt-record'): RunRecord {
  const row = stored as Readonly<Record<string, unknown>>;
  const runId = typeof row.id === 'string' ? row.id : String(row.id);
  const fail: (field: string, problem: string) => never = (field, problem) => {
    const what = code === 'corrupt-record' ? `stored run ${runId} is damaged` : `run ${runId} cannot be stored`;
    throw new RunStoreError(code, `${what}: ${field} ${problem}`, { runId });
  };
  if (typeof row.id !== 'string' || row.id.length === 0) fail('id', `must be a non-empty string, found ${shown(row.id)}`);
  if (typeof row.record !== 'string') fail('record', `must be JSON text, found ${shown(row.record)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.record as string);
  } catch (error) {
    fail('record', `holds invalid JSON (${(error as Error).message})`);
  }
  if (!isObject(parsed)) fail('record', `must hold a JSON object, found ${shown(parsed)}`);
  const record = parsed as Record<string, unknown>;

  const text = (key: string, value: unknown, optional = false): void => {
    if (optional && value === undefined) return;
    if (typeof value !== 'string' || value.length === 0) fail(key, `must be a non-empty string, found ${shown(value)}`);
  };
  const time = (key: string, value: unknown, optional = false): void => {
    if (optional && value === undefined) return;
    if (!isCanonicalTimestamp(value)) fail(key, `must be a UTC time as toISOString() writes it, found ${shown(value)}`);
  };

  text('id', record.id);
  if (record.id !== runId) fail('id', `disagrees with the record (${shown(runId)} against ${shown(record.id)})`);
  text('composite', record.composite);
  if (!isRunState(record.state)) fail('state', `is not a run state: ${shown(record.state)}`);
  if (typeof record.hostSessionId !== 'string') fail('hostSessionId', `must be a string, found ${shown(record.hostSessionId)}`);
  if (record.principal !== undefined && typeof record.principal !== 'string') fail('principal', `must be a string or absent, found ${shown(record.principal)}`);
  if (!isObject(record.input)) fail('input', `must be a JSON object, found ${shown(record.input)}`);
  if (record.summary !== undefined && typeof record.summary !== 'string') fail('summary', `must be a string or absent, found ${shown(record.summary)}`);
  time('startedAt', record.startedAt);
  time('finishedAt', record.finishedAt, true);
  if (!Array.isArray(record.steps)) fail('steps', `must be a list, found ${shown(record.steps)}`);
  (record.steps as unknown[]).forEach((step, index) => {
    const where = `steps[${index}]`;
    if (!isObject(step)) fail(where, `must be an object, found ${shown(step)}`);
    const s = step as Record<string, unknown>;
    text(`${where}.id`, s.id);
    if (!isStepKind(s.kind)) fail(`${where}.kind`, `must be tool, elicit or forEach, found ${shown(s.kind)}`);
    if (!isStepState(s.state)) fail(`${where}.state`, `is not a step state: ${shown(s.state)}`);
    time(`${where}.startedAt`, s.startedAt, true);
    time(`${where}.finishedAt`, s.finishedAt, true);
    if (s.attempts !== undefined && !(Number.isSafeInteger(s.attempts) && (s.attempts as number) >= 0)) {
      fail(`${where}.attempts`, `must be a whole number of attempts, found ${shown(s.attempts)}`);
    }
    if (s.reason !== undefined && typeof s.reason !== 'string') fail(`${where}.reason`, `must be a string or absent, found ${shown(s.reason)}`);
    if (s.outcome !== undefined && !isOutcome(s.outcome)) fail(`${where}.outcome`, `must be accept, decline, cancel or timeout, found ${shown(s.outcome)}`);
    if (s.answer !== undefined && !isObject(s.answer)) fail(`${where}.answer`, `must be a JSON object or absent, found ${shown(s.answer)}`);
    text(`${where}.questionId`, s.questionId, true);
  });

  const columns: [string, unknown][] = [
    ['composite', record.composite],
    ['state', record.state],
    ['host_session', record.hostSessionId],
    ['started_at', record.startedAt],
    ['finished_at', record.finishedAt],
  ];
  for (const [column, expected] of columns) {
    if ((row[column] ?? undefined) !== expected) fail(column, `disagrees with the record (${shown(row[column])} against ${shown(expected)})`);
  }
  return record as unknown as RunRecord;
}

/** The questions a run's steps asked, one link each (a question asked by two steps of one run is linked to the first). */
export function questionLinks(record: RunRecord): RunQuestionLink[] {
  const links = new Map<string, RunQuestionLink>();
  for (const step of record.steps) {
    if (step.questionId !== undefined && !links.has(step.questionId)) links.set(step.questionId, { questionId: step.questionId, stepId: step.id });
  }
  return [...links.values()];
}

/** Refuses a link to a question that another run already claims. */
export function questionTaken(runId: string, questionId: string, otherRun: string): RunStoreError {
  return new RunStoreError('invalid-record', `run ${runId} cannot be stored: question ${questionId} belongs to run ${otherRun}`, { runId });
}

export interface NormalizedRunFilter {
  /** Undefined: any state; an empty list matches nothing. */
  states?: RunState[];
  composite?: string;
  /** Canonical timestamp; only runs started strictly before it. */
  before?: string;
  limit: number;
}

/** Checks a filter (`invalid-filter` otherwise). A limit above 1000 is lowered to 1000; none means 100. */
export function normalizeRunFilter(filter: RunFilter = {}): NormalizedRunFilter {
  const fail = (problem: string): never => {
    throw new RunStoreError('invalid-filter', `run filter: ${problem}`);
  };
  if (!isObject(filter)) fail('must be an object');
  const out: NormalizedRunFilter = { limit: DEFAULT_LIST_LIMIT };
  if (filter.state !== undefined) {
    const states: unknown[] = Array.isArray(filter.state) ? filter.state : [filter.state];
    for (const state of states) if (!isRunState(state)) fail(`state ${JSON.stringify(state) ?? 'nothing'} is not a run state`);
    out.states = [...new Set(states as RunState[])];
  }
  if (filter.composite !== undefined) {
    if (typeof filter.composite !== 'string') fail('composite must be a string');
    out.composite = filter.composite;
  }
  if (filter.before !== undefined) {
    try {
      out.before = normalizeBound(filter.before);
    } catch (error) {
      if (!isQuestionStoreError(error)) throw error;
      fail(error.message);
    }
  }
  if (filter.limit !== undefined) {
    if (!Number.isSafeInteger(filter.limit) || filter.limit < 1) fail(`limit must be a positive integer, got ${String(filter.limit)}`);
    out.limit = Math.min(filter.limit, MAX_LIST_LIMIT);
  }
  return out;
}

/** Whether a row passes every condition of the filter (the limit aside). */
export function runRowMatches(row: RunRow, filter: NormalizedRunFilter): boolean {
  return (
    (filter.states === undefined || (filter.states as readonly string[]).includes(row.state)) &&
    (filter.composite === undefined || row.composite === filter.composite) &&
    (filter.before === undefined || row.started_at < filter.before)
  );
}

/**
 * The record `abandonRunning` writes for a run left `running`: failed, finished at `at`, with `reason`; its running
 * steps aborted and its pending ones skipped, with the same reason.
 */
export function abandonedRun(record: RunRecord, reason: string, at: string): RunRecord {
  const steps = record.steps.map((step): StepRecord => {
    if (step.state === 'running') return { ...step, state: 'aborted', finishedAt: at, reason };
    if (step.state === 'pending') return { ...step, state: 'skipped', reason };
    return step;
  });
  return { ...record, state: 'failed', steps, summary: reason, finishedAt: at };
}
