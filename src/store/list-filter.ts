/** @module A list filter checked and put in one form, and the record test a store without SQL applies (newest first, then the limit). */

import type { QuestionFilter, QuestionMethod, QuestionRecord, QuestionState } from '../questions/question.js';
import { isObject } from '../protocol/jsonrpc.js';
import { isAnswererKind, isQuestionMethod, isQuestionState } from './record-rules.js';
import { QuestionStoreError } from './store-error.js';
import { normalizeBound } from './timestamps.js';

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;

export interface NormalizedFilter {
  /** Undefined: any state; an empty list matches nothing. */
  states?: QuestionState[];
  upstream?: string;
  tool?: string;
  answeredBy?: 'host' | 'operator' | 'gateway';
  method?: QuestionMethod;
  /** Canonical timestamp; only rows created strictly before it. */
  before?: string;
  limit: number;
}

/**
 * Checks a filter (`invalid-filter` for an unknown state, method or answerer kind, a limit that is not a positive
 * integer, a `before` that is not an ISO time). A limit above 1000 is lowered to 1000; none means 100.
 */
export function normalizeFilter(filter: QuestionFilter = {}): NormalizedFilter {
  const fail = (problem: string): never => {
    throw new QuestionStoreError('invalid-filter', `question filter: ${problem}`);
  };
  if (!isObject(filter)) fail('must be an object');
  const out: NormalizedFilter = { limit: DEFAULT_LIST_LIMIT };
  if (filter.state !== undefined) {
    const states: unknown[] = Array.isArray(filter.state) ? filter.state : [filter.state];
    for (const state of states) if (!isQuestionState(state)) fail(`state ${JSON.stringify(state) ?? 'nothing'} is not a question state`);
    out.states = [...new Set(states as QuestionState[])];
  }
  for (const key of ['upstream', 'tool'] as const) {
    const value: unknown = filter[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') fail(`${key} must be a string`);
    out[key] = value as string;
  }
  if (filter.answeredBy !== undefined) {
    if (!isAnswererKind(filter.answeredBy)) fail(`answeredBy must be host, operator or gateway, got ${JSON.stringify(filter.answeredBy) ?? 'nothing'}`);
    out.answeredBy = filter.answeredBy;
  }
  if (filter.method !== undefined) {
    if (!isQuestionMethod(filter.method)) fail(`method ${JSON.stringify(filter.method) ?? 'nothing'} is not a question method`);
    out.method = filter.method;
  }
  if (filter.before !== undefined) out.before = normalizeBound(filter.before);
  if (filter.limit !== undefined) {
    if (!Number.isSafeInteger(filter.limit) || filter.limit < 1) fail(`limit must be a positive integer, got ${String(filter.limit)}`);
    out.limit = Math.min(filter.limit, MAX_LIST_LIMIT);
  }
  return out;
}

/** Whether a record passes every condition of the filter (the limit aside): what a store without SQL applies. */
export function recordMatches(record: QuestionRecord, filter: NormalizedFilter): boolean {
  return (
    (filter.states === undefined || filter.states.includes(record.state)) &&
    (filter.upstream === undefined || record.origin.upstream === filter.upstream) &&
    (filter.tool === undefined || record.origin.tool === filter.tool) &&
    (filter.answeredBy === undefined || record.answeredBy?.kind === filter.answeredBy) &&
    (filter.method === undefined || record.method === filter.method) &&
    (filter.before === undefined || record.createdAt < filter.before)
  );
}
