/** @module What the memory store keeps of what it is given: checked records, transitions applied to them, audit lines, each a copy with JSON's semantics. */

import type { AuditEntry, QuestionRecord, Transition } from '../../questions/question.js';
import { SETTLED_STATES } from '../../questions/question.js';
import type { AuditLine } from '../../questions/question-store.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { answererProblem, answerProblem, closedFieldProblem, isAudience, orderedRecord, originProblem, shown } from '../record-rules.js';
import { QuestionStoreError } from '../store-error.js';
import { isCanonicalTimestamp } from '../timestamps.js';

/** The JSON-valued fields of a record or a transition, as given. */
type JsonFields = Partial<Record<'params' | 'hostParams' | 'origin' | 'answer' | 'answeredBy' | 'detail', unknown>>;

function refuse(questionId: string, field: string, problem: string): never {
  throw new QuestionStoreError('invalid-record', `question ${questionId} cannot be stored: ${field} ${problem}`, { questionId });
}

/**
 * Deep copies of `fields` as a JSON store reads them back (key order kept, `__proto__` as data, a Date as its string,
 * undefined members left out), so nothing the caller holds aliases the store. Each field given must be a JSON object
 * (`required` ones must be given); a field with no JSON form (a BigInt, a cycle, a function) is refused with
 * `invalid-record`, as a store writing JSON text would refuse it.
 */
function jsonObjects(fields: JsonFields, questionId: string, required: readonly (keyof JsonFields)[] = []): Partial<Record<keyof JsonFields, JsonObject>> {
  let text: string;
  try {
    text = JSON.stringify(fields);
  } catch (error) {
    throw notJson(fields, questionId, error);
  }
  const copies = JSON.parse(text) as JsonFields;
  for (const [field, value] of Object.entries(fields) as [keyof JsonFields, unknown][]) {
    const copy = copies[field];
    if (value !== undefined && copy === undefined) refuse(questionId, field, 'is not JSON');
    // A copy is JSON.parse's: a JSON object is what is neither null, a scalar nor an array.
    const object = typeof copy === 'object' && copy !== null && !Array.isArray(copy);
    if (copy === undefined ? required.includes(field) : !object) refuse(questionId, field, `must be a JSON object, found ${shown(copy)}`);
  }
  return copies as Partial<Record<keyof JsonFields, JsonObject>>;
}

/** The refusal naming the first field of `fields` that has no JSON form. */
function notJson(fields: JsonFields, questionId: string, error: unknown): QuestionStoreError {
  for (const [field, value] of Object.entries(fields)) {
    try {
      JSON.stringify(value);
    } catch (cause) {
      return new QuestionStoreError('invalid-record', `question ${questionId}: ${field} is not JSON (${(cause as Error).message})`, { questionId, cause });
    }
  }
  return new QuestionStoreError('invalid-record', `question ${questionId} is not JSON (${(error as Error).message})`, { questionId, cause: error });
}

/** The copied answer and answerer, when given, checked as every store checks them. */
function settledFields(copies: Partial<Record<keyof JsonFields, JsonObject>>, id: string): Pick<QuestionRecord, 'answer' | 'answeredBy'> {
  const { answer, answeredBy } = copies;
  const answerWrong = answer === undefined ? undefined : answerProblem(answer);
  if (answerWrong !== undefined) refuse(id, 'answer', answerWrong);
  const answererWrong = answeredBy === undefined ? undefined : answererProblem(answeredBy);
  if (answererWrong !== undefined) refuse(id, 'answeredBy', answererWrong);
  return { answer: answer as QuestionRecord['answer'], answeredBy: answeredBy as QuestionRecord['answeredBy'] };
}

/**
 * The record to keep for a new question: every field checked as a store that writes it must check it (known method,
 * state, route and audience, times in `toISOString()` form, JSON objects where the type says so, an origin naming
 * its upstream, a well-formed answer and answerer), copied, keys in the one order. Anything else is `invalid-record`.
 */
export function keptQuestion(record: QuestionRecord): QuestionRecord {
  if (!isObject(record)) throw new QuestionStoreError('invalid-record', 'a question must be an object');
  const id: unknown = record.id;
  if (typeof id !== 'string' || id.length === 0) refuse(String(id), 'id', `must be a non-empty string, found ${shown(id)}`);
  const closed = closedFieldProblem(record);
  if (closed !== undefined) refuse(id, closed.field, closed.problem);
  if (record.audienceReason !== undefined && typeof record.audienceReason !== 'string') {
    refuse(id, 'audienceReason', `must be a string or absent, found ${shown(record.audienceReason)}`);
  }
  for (const field of ['createdAt', 'updatedAt', 'deadline', 'settledAt'] as const) {
    const value = record[field];
    if ((value !== undefined || field !== 'settledAt') && !isCanonicalTimestamp(value)) {
      refuse(id, field, `must be a UTC time as toISOString() writes it, found ${shown(value)}`);
    }
  }
  const fields = { params: record.params, hostParams: record.hostParams, origin: record.origin, answer: record.answer, answeredBy: record.answeredBy };
  const copies = jsonObjects(fields, id, ['params', 'origin']);
  const origin = copies.origin as JsonObject;
  const originWrong = originProblem(origin);
  if (originWrong !== undefined) refuse(id, 'origin', originWrong);
  const { answer, answeredBy } = settledFields(copies, id);
  return orderedRecord({
    ...record,
    params: copies.params as JsonObject,
    hostParams: copies.hostParams,
    origin: origin as unknown as QuestionRecord['origin'],
    answer,
    answeredBy,
  });
}

/**
 * The kept record after `transition` (already checked with `checkTransition`, its `from` met) at time `at`: the new
 * state and `updatedAt`, `settledAt` set for a settled state and left out for an open one, and the fields the
 * transition gives (checked and copied) replacing the old ones. The old record is not changed; untouched values are
 * shared with it, which is safe because the store never changes a kept value nor hands one out.
 */
export function transitioned(record: QuestionRecord, transition: Transition, at: string): QuestionRecord {
  const id = record.id;
  const copies = jsonObjects({ answer: transition.answer, answeredBy: transition.answeredBy, hostParams: transition.hostParams }, id);
  const { answer, answeredBy } = settledFields(copies, id);
  const hostParams = copies.hostParams;
  if (transition.audience !== undefined && !isAudience(transition.audience)) refuse(id, 'audience', `is not an audience: ${shown(transition.audience)}`);
  if (transition.audienceReason !== undefined && typeof transition.audienceReason !== 'string') {
    refuse(id, 'audienceReason', `must be a string or absent, found ${shown(transition.audienceReason)}`);
  }
  return orderedRecord({
    ...record,
    state: transition.to,
    updatedAt: at,
    settledAt: SETTLED_STATES.includes(transition.to) ? at : undefined,
    answer: answer ?? record.answer,
    answeredBy: answeredBy ?? record.answeredBy,
    hostParams: hostParams ?? record.hostParams,
    audience: transition.audience ?? record.audience,
    audienceReason: transition.audienceReason ?? record.audienceReason,
  });
}

/** The entry to keep for an audit line about `questionId` at `at`: actor and action non-empty strings, detail a JSON object (copied). */
export function keptAuditEntry(line: AuditLine, questionId: string, at: string): AuditEntry {
  if (!isObject(line)) refuseLine(questionId, 'it must be an object');
  if (typeof questionId !== 'string' || questionId === '') refuseLine(questionId, 'question_id must be a non-empty string');
  if (typeof line.actor !== 'string' || line.actor === '') refuseLine(questionId, 'actor must be a non-empty string');
  if (typeof line.action !== 'string' || line.action === '') refuseLine(questionId, 'action must be a non-empty string');
  const entry: AuditEntry = { questionId, at, actor: line.actor, action: line.action };
  if (line.detail !== undefined) entry.detail = jsonObjects({ detail: line.detail }, questionId).detail;
  return entry;
}

function refuseLine(questionId: unknown, problem: string): never {
  throw new QuestionStoreError('invalid-record', `audit line for question ${String(questionId)} cannot be stored: ${problem}`, { questionId: String(questionId) });
}
