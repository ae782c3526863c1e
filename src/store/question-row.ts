/** @module A question as one flat row (columns to filter on, JSON text for the rest), shared by every store, and its strict reading back. */

import type { Answerer, QuestionAnswer, QuestionOrigin, QuestionRecord } from '../questions/question.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { answererProblem, answerProblem, isAudience, isQuestionMethod, isQuestionState, isRoutePolicy, orderedRecord, originProblem, shown } from './record-rules.js';
import type { QuestionStoreErrorCode } from './store-error.js';
import { QuestionStoreError } from './store-error.js';
import { isCanonicalTimestamp } from './timestamps.js';

/** Column names are the SQL ones; every value is text or NULL, so any store can hold a row as it is. */
export interface QuestionRow {
  id: string;
  method: string;
  state: string;
  upstream: string;
  tool: string | null;
  host_session: string | null;
  principal: string | null;
  route: string;
  audience: string;
  audience_reason: string | null;
  answered_by_kind: string | null;
  created_at: string;
  updated_at: string;
  settled_at: string | null;
  deadline: string;
  /** The gateway instance that created the question (several instances may share one store). */
  owner: string | null;
  params: string;
  host_params: string | null;
  origin: string;
  answer: string | null;
  answered_by: string | null;
}

export const QUESTION_COLUMNS = [
  'id',
  'method',
  'state',
  'upstream',
  'tool',
  'host_session',
  'principal',
  'route',
  'audience',
  'audience_reason',
  'answered_by_kind',
  'created_at',
  'updated_at',
  'settled_at',
  'deadline',
  'owner',
  'params',
  'host_params',
  'origin',
  'answer',
  'answered_by',
] as const satisfies readonly (keyof QuestionRow)[];

/** JSON text of a value, or a store error naming the field when it has none (a BigInt, a cycle, a function). */
export function jsonText(value: unknown, questionId: string, field: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new QuestionStoreError('invalid-record', `question ${questionId}: ${field} is not JSON (${(error as Error).message})`, { questionId, cause: error });
  }
  if (text === undefined) throw new QuestionStoreError('invalid-record', `question ${questionId}: ${field} is not JSON`, { questionId });
  return text;
}

function optionalJson(value: unknown, questionId: string, field: string): string | null {
  return value === undefined ? null : jsonText(value, questionId, field);
}

/**
 * The row for a new question. Refuses (`invalid-record`) anything that would not read back as the same record,
 * so a store never writes what it cannot return.
 */
export function encodeQuestion(record: QuestionRecord, owner: string | undefined): QuestionRow {
  if (!isObject(record)) throw new QuestionStoreError('invalid-record', 'a question must be an object');
  const id = typeof record.id === 'string' ? record.id : String(record.id);
  const origin: Partial<QuestionOrigin> = isObject(record.origin) ? record.origin : {};
  const answeredBy: Partial<Answerer> | undefined = isObject(record.answeredBy) ? record.answeredBy : undefined;
  const row: QuestionRow = {
    id,
    method: record.method,
    state: record.state,
    upstream: origin.upstream as string,
    tool: origin.tool ?? null,
    host_session: origin.hostSessionId ?? null,
    principal: origin.principal ?? null,
    route: record.route,
    audience: record.audience,
    audience_reason: record.audienceReason ?? null,
    answered_by_kind: answeredBy?.kind ?? null,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    settled_at: record.settledAt ?? null,
    deadline: record.deadline,
    owner: owner ?? null,
    params: jsonText(record.params, id, 'params'),
    host_params: optionalJson(record.hostParams, id, 'hostParams'),
    origin: jsonText(record.origin, id, 'origin'),
    answer: optionalJson(record.answer, id, 'answer'),
    answered_by: optionalJson(record.answeredBy, id, 'answeredBy'),
  };
  decodeQuestion(row, 'invalid-record');
  return row;
}

/**
 * The record a row holds. Checks every column, so a hand-edited or damaged row gives a `corrupt-record` error naming
 * the question and the column (or `code`, when checking what a caller asked to write) instead of a half-valid record.
 * The record's keys always come in one order, and absent optional fields are left out rather than set to undefined.
 */
export function decodeQuestion(stored: object, code: QuestionStoreErrorCode = 'corrupt-record'): QuestionRecord {
  const row = stored as Readonly<Record<string, unknown>>;
  const questionId = typeof row.id === 'string' ? row.id : String(row.id);
  const fail: (column: string, problem: string) => never = (column, problem) => {
    const what = code === 'corrupt-record' ? `stored question ${questionId} is damaged` : `question ${questionId} cannot be stored`;
    throw new QuestionStoreError(code, `${what}: ${column} ${problem}`, { questionId });
  };
  const text = (column: string): string => {
    const value = row[column];
    if (typeof value !== 'string' || value.length === 0) fail(column, `must be a non-empty string, found ${shown(value)}`);
    return value as string;
  };
  const optionalText = (column: string): string | undefined => {
    const value = row[column];
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'string') fail(column, `must be a string or absent, found ${shown(value)}`);
    return value as string;
  };
  const time = (column: string): string => {
    const value = row[column];
    if (!isCanonicalTimestamp(value)) fail(column, `must be a UTC time as toISOString() writes it, found ${shown(value)}`);
    return value as string;
  };
  const json = (column: string): JsonObject | undefined => {
    const value = row[column];
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'string') fail(column, `must be JSON text, found ${shown(value)}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(value as string);
    } catch (error) {
      fail(column, `holds invalid JSON (${(error as Error).message})`);
    }
    if (!isObject(parsed)) fail(column, `must hold a JSON object, found ${shown(parsed)}`);
    return parsed as JsonObject;
  };
  const requiredJson = (column: string): JsonObject => json(column) ?? fail(column, 'must hold a JSON object, found nothing');

  text('id');
  const method = text('method');
  if (!isQuestionMethod(method)) fail('method', `is not a question method: ${shown(method)}`);
  const state = text('state');
  if (!isQuestionState(state)) fail('state', `is not a question state: ${shown(state)}`);
  const route = text('route');
  if (!isRoutePolicy(route)) fail('route', `is not a route policy: ${shown(route)}`);
  const audience = text('audience');
  if (!isAudience(audience)) fail('audience', `is not an audience: ${shown(audience)}`);
  const audienceReason = optionalText('audience_reason');
  const createdAt = time('created_at');
  const updatedAt = time('updated_at');
  const deadline = time('deadline');
  const settledAt = row.settled_at === null || row.settled_at === undefined ? undefined : time('settled_at');
  optionalText('owner');

  const params = requiredJson('params');
  const hostParams = json('host_params');
  const origin = requiredJson('origin');
  const originWrong = originProblem(origin);
  if (originWrong !== undefined) fail('origin', originWrong);
  const columnMatches: [string, unknown][] = [
    ['upstream', origin.upstream],
    ['tool', origin.tool],
    ['host_session', origin.hostSessionId],
    ['principal', origin.principal],
  ];
  for (const [column, expected] of columnMatches) {
    if ((row[column] ?? undefined) !== expected) fail(column, `disagrees with origin (${shown(row[column])} against ${shown(expected)})`);
  }

  const answer = json('answer');
  const answerWrong = answer === undefined ? undefined : answerProblem(answer);
  if (answerWrong !== undefined) fail('answer', answerWrong);
  const answeredBy = json('answered_by');
  const answererWrong = answeredBy === undefined ? undefined : answererProblem(answeredBy);
  if (answererWrong !== undefined) fail('answered_by', answererWrong);
  if ((row.answered_by_kind ?? undefined) !== answeredBy?.kind) {
    fail('answered_by_kind', `disagrees with answered_by (${shown(row.answered_by_kind)} against ${shown(answeredBy?.kind)})`);
  }

  return orderedRecord({
    id: questionId,
    method,
    params,
    hostParams,
    origin: origin as unknown as QuestionOrigin,
    route,
    audience,
    audienceReason,
    state,
    deadline,
    answer: answer as unknown as QuestionAnswer | undefined,
    answeredBy: answeredBy as unknown as Answerer | undefined,
    createdAt,
    updatedAt,
    settledAt,
  });
}
