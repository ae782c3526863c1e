/** @module What the asker of a question receives when it settles: the host's answer fitted to its revision, an operator's or the gateway's reply, or an error. */

import { GatewayError, RPC_CODE_FOR } from '../protocol/gateway-errors.js';
import type { QuestionRecord } from './question.js';
import { ProtocolError, RpcCode } from '../protocol/errors.js';
import type { JsonObject, JsonRpcResponse } from '../protocol/jsonrpc.js';
import { isErrorResponse } from '../protocol/jsonrpc.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import type { AnswerRefusal } from '../translation/answers/answer-check.js';
import { fitSamplingResult } from '../translation/sampling-content.js';

export type UpstreamReply = { result: JsonObject; answeredBy?: string } | { error: ProtocolError };

/** A host's (checked) answer as the upstream gets it: its error as is; a sampling result fitted to the upstream's revision. */
export function hostReply(method: string, upstreamRevision: string | undefined, message: JsonRpcResponse, checked: JsonObject | undefined): UpstreamReply {
  if (isErrorResponse(message)) return { error: ProtocolError.from(message.error) };
  if (method === 'sampling/createMessage') {
    // A 2025-11-25 host may answer with an array of blocks; an older upstream holds one block.
    const fitted = fitSamplingResult(message.result, upstreamRevision ?? LATEST_LEGACY_REVISION);
    if (!fitted.ok) return { error: new ProtocolError(RpcCode.InternalError, `The host's sampling result cannot be relayed: ${fitted.reason}`) };
    return { result: fitted.result };
  }
  return { result: checked ?? message.result, answeredBy: 'the host' };
}

/** What the upstream receives for a question settled by someone other than its host: a result, or an error. */
export function upstreamReply(question: Pick<QuestionRecord, 'state' | 'answer' | 'answeredBy'> & { method: string }): UpstreamReply {
  const answer = question.answer ?? { action: 'cancel' };
  const by = question.answeredBy?.kind === 'operator' ? `the operator ${question.answeredBy.name}` : question.answeredBy?.kind === 'gateway' ? 'the gateway' : undefined;
  const answeredBy = by === undefined ? {} : { answeredBy: by };
  if (question.method === 'elicitation/create') {
    if (answer.action === 'accept') return { result: answer.content === undefined ? { action: 'accept' } : { action: 'accept', content: answer.content }, ...answeredBy };
    return { result: { action: answer.action }, ...answeredBy };
  }
  if (answer.action === 'accept' && answer.result) return { result: answer.result, ...answeredBy };
  const who = question.answeredBy?.kind === 'operator' ? 'an operator' : 'the gateway';
  const why = question.state === 'expired' ? 'the question expired' : `${answer.action === 'decline' ? 'declined' : 'cancelled'} by ${who}`;
  return { error: new ProtocolError(RpcCode.UserRejected, `${question.method === 'sampling/createMessage' ? 'Sampling' : 'Request'} refused: ${why}`) };
}

/** The upstream's error for a host answer that broke the limits or the schema it was asked with: -32602, GW_ERR_INVALID_ANSWER and the field in `data`. */
export function invalidAnswerError(refusal: AnswerRefusal): ProtocolError {
  return new ProtocolError(RPC_CODE_FOR.GW_ERR_INVALID_ANSWER, `Invalid params: the host's answer was refused: ${refusal.reason}`, {
    reason: 'GW_ERR_INVALID_ANSWER',
    ...(refusal.field === undefined ? {} : { field: refusal.field }),
  });
}

/** The upstream's error for a question whose call or host session went away: -32800. */
export function abandonedError(why: string): ProtocolError {
  return new ProtocolError(RpcCode.RequestCancelled, `Question abandoned: ${why}`);
}

/** The error a host lacking what a `method` question needs would send: -32601, GW_ERR_HOST_LACKS_CAPABILITY in `data`. */
export function hostLacksCapability(method: string, why: string): ProtocolError {
  return new GatewayError('GW_ERR_HOST_LACKS_CAPABILITY', `Method not found: ${method} (${why})`).toProtocolError();
}
