/** @module Checks an operator's answer against the question as the upstream asked it, and shapes what the upstream receives. */

import type { AnswerCheck } from '../broker/broker.js';
import type { QuestionAnswer, QuestionRecord } from '../broker/question.js';
import { ProtocolError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { validateElicitAnswer } from '../translation/elicitation-answer.js';
import { checkAnswerLimits } from '../translation/elicitation-limits.js';
import { fitSamplingResult } from '../translation/sampling-content.js';

/** The error code a refused sampling request gets (the spec's "user rejected" code). */
export const USER_REJECTED = -1;

/** An operator's `accept`, checked against the upstream's own request (its schema, its revision). */
export function checkOperatorAnswer(method: string, params: JsonObject, upstreamRevision: string, answer: QuestionAnswer): AnswerCheck {
  if (answer.action !== 'accept') return { ok: true, answer: { action: answer.action } };
  switch (method) {
    case 'elicitation/create': {
      const result: JsonObject = answer.content === undefined ? { action: 'accept' } : { action: 'accept', content: answer.content };
      const verdict = validateElicitAnswer(result, params.mode === 'url' ? undefined : params.requestedSchema);
      if (!verdict.ok) return { ok: false, reason: verdict.reason, ...(verdict.field ? { field: verdict.field } : {}) };
      return { ok: true, answer: answer.content === undefined ? { action: 'accept' } : { action: 'accept', content: answer.content } };
    }
    case 'sampling/createMessage': {
      const result = answer.result;
      if (!isObject(result)) return { ok: false, reason: 'a sampling answer needs a result', field: 'result' };
      const limit = checkAnswerLimits(result);
      if (limit) return { ok: false, reason: limit, field: 'result' };
      if (result.role !== 'assistant') return { ok: false, reason: 'result.role must be "assistant"', field: 'result.role' };
      if (typeof result.model !== 'string' || result.model === '') return { ok: false, reason: 'result.model must be a non-empty string', field: 'result.model' };
      if (!isObject(result.content) && !Array.isArray(result.content)) return { ok: false, reason: 'result.content must be a content block', field: 'result.content' };
      const fitted = fitSamplingResult(result, upstreamRevision);
      if (!fitted.ok) return { ok: false, reason: fitted.reason, field: 'result.content' };
      return { ok: true, answer: { action: 'accept', result: fitted.result } };
    }
    case 'roots/list': {
      const result = answer.result;
      if (!isObject(result) || !Array.isArray(result.roots)) return { ok: false, reason: 'a roots answer needs result.roots (an array)', field: 'result.roots' };
      const bad = result.roots.findIndex((root) => !isObject(root) || typeof root.uri !== 'string' || !root.uri.startsWith('file://'));
      if (bad !== -1) return { ok: false, reason: 'each root needs a file:// uri', field: `result.roots[${bad}].uri` };
      return { ok: true, answer: { action: 'accept', result } };
    }
    default:
      return { ok: false, reason: `${method} cannot be answered by an operator` };
  }
}

/** What the upstream receives for a question settled by someone other than its host: a result, or an error. */
export function upstreamReply(question: QuestionRecord): { result: JsonObject } | { error: ProtocolError } {
  const answer = question.answer ?? { action: 'cancel' };
  const who = question.answeredBy?.kind === 'operator' ? 'an operator' : 'the gateway';
  if (question.method === 'elicitation/create') {
    if (answer.action === 'accept') return { result: answer.content === undefined ? { action: 'accept' } : { action: 'accept', content: answer.content } };
    return { result: { action: answer.action } };
  }
  if (answer.action === 'accept' && answer.result) return { result: answer.result };
  const why = question.state === 'expired' ? 'the question expired' : `${answer.action === 'decline' ? 'declined' : 'cancelled'} by ${who}`;
  return { error: new ProtocolError(USER_REJECTED, `${question.method === 'sampling/createMessage' ? 'Sampling' : 'Request'} refused: ${why}`) };
}
