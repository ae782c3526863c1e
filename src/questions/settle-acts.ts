/** @module Carries out one row of SETTLE_EFFECTS for a settled question: resumes its calls, tells the host that holds it, answers its asker. */

import type { Logger } from '../core/log.js';
import type { ProtocolError } from '../protocol/errors.js';
import type { HeldQuestion } from './held-question.js';
import type { Outcome, SettleEffects, Settlement } from './settle-table.js';
import type { UpstreamReply } from './upstream-reply.js';
import { abandonedError, hostLacksCapability, hostReply, invalidAnswerError, upstreamReply } from './upstream-reply.js';

/** The effects of `outcome` (`effects`, its row) on `question`, in this order: the paused calls resume, the host is told, the asker is answered. */
export function act<O extends Outcome>(question: HeldQuestion, outcome: O, effects: SettleEffects<O>, settlement: Settlement, logger: Logger): void {
  if (effects.resume) for (const id of question.paused) question.asker?.resume(id);
  const host = question.seat?.host;
  if (effects.tellHost && question.hostKey !== undefined && host && !host.closed) {
    host.withdraw(question.hostKey, effects.tellHost(outcome), question.relatedRequestId);
  }
  const reply = replyOf(question, outcome, effects, settlement, logger);
  if (!reply || !question.asker || question.upstreamId === undefined) return;
  if ('error' in reply) question.asker.respondError(question.upstreamId, reply.error);
  else question.asker.respond(question.upstreamId, reply.result, reply.answeredBy);
}

/** What the asker gets, as the row's `upstream` says. */
function replyOf<O extends Outcome>(question: HeldQuestion, outcome: O, effects: SettleEffects<O>, settlement: Settlement, logger: Logger): UpstreamReply | undefined {
  switch (effects.upstream) {
    case 'host-answer':
      return outcome.kind === 'host-answer' ? hostReply(question.method, question.asker?.protocolVersion, outcome.message, outcome.checked) : undefined;
    case 'invalid-answer':
      return outcome.kind === 'host-answer-refused' ? { error: invalidAnswerError(outcome.refusal) } : undefined;
    case 'abandoned':
      return { error: abandonedError(effects.why?.(outcome) ?? 'the question was abandoned') };
    case 'nobody-can-answer':
      return { error: nobodyCanAnswer(question, logger) };
    case 'recorded-answer':
      return upstreamReply({ method: question.method, state: settlement.to, answer: settlement.answer, answeredBy: settlement.answeredBy });
    case 'nothing':
      return undefined;
  }
}

/**
 * Nobody could be asked (the host cannot take it, or the route keeps it from the host and no operator runs): the
 * upstream gets what a host lacking the capability sends (-32601), never `cancel`, which would claim a person
 * cancelled (and is no sampling or roots result at all); a 2026-07-28 host is told what it should have declared.
 */
function nobodyCanAnswer(question: HeldQuestion, logger: Logger): ProtocolError {
  const host = question.seat?.host;
  if (question.hostCouldNot !== undefined && question.relatedRequestId !== undefined) host?.lacks?.(question.relatedRequestId, question.method, question.params);
  logger.log('info', `answering ${question.method} from upstream '${question.asker?.spec.name ?? question.method}' without anyone: ${question.audienceReason ?? ''}`, { session: host?.id });
  return question.unreachable ?? hostLacksCapability(question.method, question.audienceReason ?? question.hostCouldNot ?? 'nobody may answer it');
}
