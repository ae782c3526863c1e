/** @module An audit line as one row (detail as JSON text), shared by every store, and its strict reading back. */

import type { AuditEntry } from '../questions/question.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { jsonText } from './question-row.js';
import { QuestionStoreError } from './store-error.js';
import { isCanonicalTimestamp } from './timestamps.js';

export interface AuditRow {
  /** Increasing in the order lines were written: the trail's order. */
  id: number;
  question_id: string;
  at: string;
  actor: string;
  action: string;
  detail: string | null;
}

/** The row for a new audit line (without its id); refuses (`invalid-record`) what would not read back. */
export function encodeAudit(entry: Omit<AuditEntry, 'at'>, at: string): Omit<AuditRow, 'id'> {
  if (!isObject(entry)) throw new QuestionStoreError('invalid-record', 'an audit line must be an object');
  const questionId = String(entry.questionId);
  const row = {
    question_id: entry.questionId,
    at,
    actor: entry.actor,
    action: entry.action,
    detail: entry.detail === undefined ? null : jsonText(entry.detail, questionId, 'audit detail'),
  };
  decodeAudit({ id: 0, ...row }, 'invalid-record');
  return row;
}

/** The entry a row holds; a damaged row gives a store error naming the question and the line. */
export function decodeAudit(stored: object, code: 'corrupt-record' | 'invalid-record' = 'corrupt-record'): AuditEntry {
  const row = stored as Readonly<Record<string, unknown>>;
  const questionId = typeof row.question_id === 'string' ? row.question_id : String(row.question_id);
  const fail = (problem: string): never => {
    const what = code === 'corrupt-record' ? `audit line ${String(row.id)} of question ${questionId} is damaged` : `audit line for question ${questionId} cannot be stored`;
    throw new QuestionStoreError(code, `${what}: ${problem}`, { questionId });
  };
  for (const column of ['question_id', 'actor', 'action'] as const) {
    if (typeof row[column] !== 'string' || row[column] === '') fail(`${column} must be a non-empty string`);
  }
  if (!isCanonicalTimestamp(row.at)) fail('at must be a UTC time as toISOString() writes it');
  const entry: AuditEntry = { questionId, at: row.at as string, actor: row.actor as string, action: row.action as string };
  if (row.detail !== null && row.detail !== undefined) {
    if (typeof row.detail !== 'string') fail('detail must be JSON text');
    let detail: unknown;
    try {
      detail = JSON.parse(row.detail as string);
    } catch (error) {
      fail(`detail holds invalid JSON (${(error as Error).message})`);
    }
    if (!isObject(detail)) fail('detail must hold a JSON object');
    entry.detail = detail as JsonObject;
  }
  return entry;
}
