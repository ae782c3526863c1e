/** @module A host's answer to a relayed question: checked against what it was asked, and in the broker's terms for the record. */

import type { QuestionAnswer } from '../broker/question.js';
import type { JsonObject, JsonRpcResponse } from '../protocol/jsonrpc.js';
import { isErrorResponse, isObject } from '../protocol/jsonrpc.js';
import { validateElicitAnswer } from '../translation/elicitation-answer.js';
import { fillHiddenDefaults } from '../translation/elicitation-defaults.js';
import { checkAnswerLimits } from '../translation/elicitation-limits.js';

/** What a form question was asked with: the schema the host was sent, and the upstream's own when it was downgraded. */
export interface AskedSchemas {
  requestedSchema: JsonObject | undefined;
  upstreamSchema: JsonObject | undefined;
}

export type HostAnswerCheck = { ok: true; result: JsonObject | undefined } | { ok: false; reason: string; field?: string };

/**
 * What the upstream gets for a host's answer, or why the answer is refused. A form answer must pass
 * the limits and the schema the host was sent; when that schema was downgraded, the defaults the host
 * never saw are filled in and the result must also satisfy the upstream's own schema. Anything else
 * (and every answer of a host that was sent the upstream's schema as is) goes through untouched.
 */
export function checkHostAnswer(question: AskedSchemas, message: JsonRpcResponse): HostAnswerCheck {
  if (isErrorResponse(message)) return { ok: true, result: undefined };
  if (question.requestedSchema === undefined) return { ok: true, result: message.result };
  const limit = checkAnswerLimits(message.result);
  if (limit) return { ok: false, reason: `Invalid answer: ${limit}`, field: 'content' };
  const verdict = validateElicitAnswer(message.result, question.requestedSchema);
  if (!verdict.ok) return { ok: false, reason: `Invalid answer: ${verdict.reason}`, ...fieldOf(verdict) };
  if (question.upstreamSchema === undefined) return { ok: true, result: message.result };
  const filled = fillHiddenDefaults(message.result, question.upstreamSchema, question.requestedSchema);
  const upstreamVerdict = validateElicitAnswer(filled, question.upstreamSchema);
  return upstreamVerdict.ok ? { ok: true, result: filled } : { ok: false, reason: `Invalid answer for the upstream's own schema: ${upstreamVerdict.reason}`, ...fieldOf(upstreamVerdict) };
}

function fieldOf(verdict: { field?: string }): { field?: string } {
  return verdict.field === undefined ? {} : { field: verdict.field };
}

/** A host's answer in the broker's terms, for the record. */
export function brokerAnswer(method: string, message: JsonRpcResponse, checked: JsonObject | undefined): QuestionAnswer {
  if (isErrorResponse(message)) return { action: 'decline', result: { error: message.error as unknown as JsonObject } };
  const result = checked ?? message.result;
  if (method === 'elicitation/create') {
    const action = result.action === 'accept' || result.action === 'decline' ? result.action : 'cancel';
    return isObject(result.content) ? { action, content: result.content } : { action };
  }
  return { action: 'accept', result };
}
