/**
 * @module What every store checks alike before it keeps a question: the desk's closed vocabularies, a record's JSON fields
 * (origin, answer, answerer), a transition; and the one key order of a record.
 */

import type { Answerer, Audience, QuestionAnswer, QuestionMethod, QuestionRecord, QuestionState, RoutePolicy, Transition } from '../questions/question.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { QuestionStoreError } from './store-error.js';

// The closed vocabularies at run time. Each record must name every member of its type and nothing else, so a new member
// fails to compile here.
const methods: Record<QuestionMethod, true> = { 'elicitation/create': true, 'sampling/createMessage': true, 'roots/list': true };
const states: Record<QuestionState, true> = {
  pending: true,
  delivered: true,
  answered: true,
  declined: true,
  cancelled: true,
  expired: true,
  abandoned: true,
};
const routes: Record<RoutePolicy, true> = { host: true, 'host-then-operator': true, operator: true, both: true };
const audiences: Record<Audience, true> = { host: true, operator: true, both: true, none: true };
const actions: Record<QuestionAnswer['action'], true> = { accept: true, decline: true, cancel: true };
const answererKinds: Record<Answerer['kind'], true> = { host: true, operator: true, gateway: true };

function member<T extends string>(set: Record<T, true>) {
  return (value: unknown): value is T => typeof value === 'string' && Object.hasOwn(set, value);
}

export const isQuestionMethod = member(methods);
export const isQuestionState = member(states);
export const isRoutePolicy = member(routes);
export const isAudience = member(audiences);
export const isAnswerAction = member(actions);
export const isAnswererKind = member(answererKinds);

/** The record fields that hold a word of a closed vocabulary, in the order they are checked, with what a wrong word is not. */
const CLOSED_FIELDS = [
  ['method', methods, 'a question method'],
  ['state', states, 'a question state'],
  ['route', routes, 'a route policy'],
  ['audience', audiences, 'an audience'],
] as const;

/** The first of a record's method, state, route and audience that is not a word of its vocabulary, and why; or undefined. */
export function closedFieldProblem(record: Readonly<Record<(typeof CLOSED_FIELDS)[number][0], unknown>>): { field: string; problem: string } | undefined {
  for (const [field, words, what] of CLOSED_FIELDS) {
    const value = record[field];
    if (typeof value !== 'string' || !Object.hasOwn(words, value)) return { field, problem: `is not ${what}: ${shown(value)}` };
  }
  return undefined;
}

const ORIGIN_TEXTS = ['tool', 'hostSessionId', 'principal', 'clientName', 'hostRevision', 'upstreamRevision'] as const;

/** What is wrong with a question's origin (it names no upstream, a named field is not a string), or undefined. */
export function originProblem(origin: JsonObject): string | undefined {
  if (typeof origin.upstream !== 'string' || origin.upstream.length === 0) return 'must name its upstream';
  for (const key of ORIGIN_TEXTS) {
    if (origin[key] !== undefined && typeof origin[key] !== 'string') return `${key} must be a string`;
  }
  if (origin.arguments !== undefined && !isObject(origin.arguments)) return 'arguments must be a JSON object';
  return undefined;
}

/** What is wrong with an answer (an unknown action, content or result that is not an object), or undefined. */
export function answerProblem(answer: JsonObject): string | undefined {
  if (!isAnswerAction(answer.action)) return `action must be accept, decline or cancel, found ${shown(answer.action)}`;
  for (const key of ['content', 'result'] as const) {
    if (answer[key] !== undefined && !isObject(answer[key])) return `${key} must be a JSON object`;
  }
  return undefined;
}

/** What is wrong with an answerer (an unknown kind, or the kind's name field missing), or undefined. */
export function answererProblem(answeredBy: JsonObject): string | undefined {
  if (!isAnswererKind(answeredBy.kind)) return `kind must be host, operator or gateway, found ${shown(answeredBy.kind)}`;
  const field = answeredBy.kind === 'host' ? 'sessionId' : answeredBy.kind === 'operator' ? 'name' : 'reason';
  if (typeof answeredBy[field] !== 'string') return `a ${answeredBy.kind} answerer needs a string ${field}`;
  return undefined;
}

/** Refuses (`invalid-record`) a transition no store could apply as asked: an unknown target, a `from` that is not a list of states. */
export function checkTransition(id: string, transition: Transition): void {
  let problem: string | undefined;
  if (!isObject(transition)) problem = 'must be an object';
  else if (!Array.isArray(transition.from) || !transition.from.every(isQuestionState)) problem = 'from must be a list of question states';
  else if (!isQuestionState(transition.to)) problem = `to is not a question state: ${JSON.stringify(transition.to) ?? 'nothing'}`;
  if (problem !== undefined) throw new QuestionStoreError('invalid-record', `transition of question ${id}: ${problem}`, { questionId: id });
}

/**
 * The record with its keys in the one order every store returns (as the SQLite columns read back), absent optional
 * fields left out rather than set to undefined. The values are the given ones, not copies.
 */
export function orderedRecord(fields: QuestionRecord): QuestionRecord {
  const record = { id: fields.id, method: fields.method, params: fields.params } as QuestionRecord;
  if (fields.hostParams !== undefined) record.hostParams = fields.hostParams;
  record.origin = fields.origin;
  record.route = fields.route;
  record.audience = fields.audience;
  if (fields.audienceReason !== undefined) record.audienceReason = fields.audienceReason;
  record.state = fields.state;
  record.deadline = fields.deadline;
  if (fields.answer !== undefined) record.answer = fields.answer;
  if (fields.answeredBy !== undefined) record.answeredBy = fields.answeredBy;
  record.createdAt = fields.createdAt;
  record.updatedAt = fields.updatedAt;
  if (fields.settledAt !== undefined) record.settledAt = fields.settledAt;
  return record;
}

/** A short, safe rendering of an unexpected value for an error message. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'binary data';
  return typeof value === 'object' ? 'an object' : typeof value;
}
