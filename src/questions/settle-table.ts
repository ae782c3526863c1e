/**
 * @module The ways a question ends and what each does: ONE table of outcomes to effects (the state recorded,
 * whether the paused calls resume, whether and why the host is told, what the asker gets). The desk's
 * `settle` reads it; nothing else decides.
 */

import type { Answerer, QuestionRecord, QuestionState } from './question.js';
import type { AuditLine } from './question-store.js';
import type { JsonObject, JsonRpcResponse } from '../protocol/jsonrpc.js';
import type { AnswerRefusal, QuestionAnswer } from '../translation/answers/answer-check.js';
import { hostAnswerOf } from '../translation/answers/answer-check.js';
import type { HeldQuestion } from './held-question.js';
import type { OperatorAnswerer } from './operator-answerer.js';

export type Outcome =
  /** The host answered, and its answer passed the check (`checked`: the result the upstream gets, defaults filled in). */
  | { kind: 'host-answer'; message: JsonRpcResponse; checked: JsonObject | undefined }
  /** The host answered, and its answer broke the limits or the schema it was asked with. */
  | { kind: 'host-answer-refused'; refusal: AnswerRefusal }
  /** An operator answered (already checked against what the upstream asked). */
  | { kind: 'operator-answer'; operator: OperatorAnswerer; answer: QuestionAnswer }
  | { kind: 'expired' }
  /** The upstream sent notifications/cancelled for its request (`reason` as it gave it, if a string). */
  | { kind: 'upstream-withdrew'; reason: string | undefined }
  /** The host cancelled the call the question belongs to. */
  | { kind: 'call-cancelled' }
  /** The upstream session that asked went away (`why`: how, when known: it crashed, it left the configuration). */
  | { kind: 'upstream-gone'; why?: string }
  /** The host session it came through closed. */
  | { kind: 'session-closed'; why: string }
  /** The gateway stops. */
  | { kind: 'shutdown' }
  /** Nobody can be asked (audience none): the host cannot take it and no operator may. */
  | { kind: 'nobody'; reason: string }
  /**
   * Another writer of a shared store settled it first (an operator on another instance, a sweep): `record` says how.
   * Nothing is written here; the effects carry it out for the call this instance holds.
   */
  | { kind: 'settled-elsewhere'; record: QuestionRecord };

export type OutcomeKind = Outcome['kind'];

/** What the asker gets when the question settles. */
export type UpstreamEffect =
  /** The host's answer, fitted to the asker's revision (an error response as is). */
  | 'host-answer'
  /** -32602 GW_ERR_INVALID_ANSWER naming the field. */
  | 'invalid-answer'
  /** The record's answer: an elicitation result, a sampling/roots result, or -1 "refused" (decline, cancel, expiry). */
  | 'recorded-answer'
  /** -32800 "Question abandoned: WHY". */
  | 'abandoned'
  /** What a host lacking the capability sends (-32601 GW_ERR_HOST_LACKS_CAPABILITY), or GW_ERR_HOST_UNREACHABLE when the host could not be reached. */
  | 'nobody-can-answer'
  /** Nothing: the asker withdrew it, is gone, or the process ends. */
  | 'nothing';

/** What one outcome records. `before` is an audit line written ahead of the state change (a refused answer's). */
export interface Settlement {
  to: QuestionState;
  answeredBy: Answerer;
  /** The answer as given (the store keeps secret fields redacted). */
  answer: QuestionAnswer;
  before?: AuditLine;
}

export interface SettleEffects<O extends Outcome> {
  record(outcome: O, question: HeldQuestion): Settlement;
  /** Whether the calls paused for the question resume. */
  resume: boolean;
  /** A host that holds the question gets notifications/cancelled with this reason (undefined: no reason); `false`: it is not told. */
  tellHost: false | ((outcome: O) => string | undefined);
  upstream: UpstreamEffect;
  /** The reason the asker's -32800 gives, for `abandoned`. */
  why?(outcome: O): string;
  /** False when the state is already recorded (by another writer): the desk writes nothing, it only acts. */
  writes?: false;
}

/** The state a question settles in for each action of its answer. */
export const STATE_OF_ACTION: Readonly<Record<QuestionAnswer['action'], QuestionState>> = { accept: 'answered', decline: 'declined', cancel: 'cancelled' };

const CANCEL: QuestionAnswer = { action: 'cancel' };

function byHost(question: HeldQuestion): Answerer {
  return { kind: 'host', sessionId: question.hostSessionId ?? 'unknown' };
}

/** Settled by the gateway for `reason`: abandoned unless said otherwise. */
function byGateway(reason: string, to: QuestionState = 'abandoned'): Settlement {
  return { to, answeredBy: { kind: 'gateway', reason }, answer: CANCEL };
}

/** Why the upstream's withdrawal ended it, as the record says. */
export function withdrawnReason(reason: string | undefined): string {
  return `the upstream withdrew it: ${reason ?? 'the upstream withdrew it'}`;
}

export const SETTLE_EFFECTS: { [K in OutcomeKind]: SettleEffects<Extract<Outcome, { kind: K }>> } = {
  'host-answer': {
    record: (outcome, question) => {
      const answer = hostAnswerOf(question.method, outcome.message, outcome.checked);
      return { to: STATE_OF_ACTION[answer.action], answeredBy: byHost(question), answer };
    },
    resume: true,
    tellHost: false,
    upstream: 'host-answer',
  },
  'host-answer-refused': {
    record: ({ refusal }, question) => ({
      to: 'cancelled',
      answeredBy: byHost(question),
      answer: CANCEL,
      before: {
        actor: `host:${question.hostSessionId ?? 'unknown'}`,
        action: 'rejected-answer',
        detail: { why: refusal.reason, ...(refusal.field === undefined ? {} : { field: refusal.field }) },
      },
    }),
    resume: true,
    tellHost: false,
    upstream: 'invalid-answer',
  },
  'operator-answer': {
    record: ({ operator, answer }) => ({ to: STATE_OF_ACTION[answer.action], answeredBy: operator, answer }),
    resume: true,
    tellHost: () => 'settled by an operator',
    upstream: 'recorded-answer',
  },
  expired: {
    record: () => byGateway('the question expired', 'expired'),
    resume: true,
    tellHost: () => 'the question expired',
    upstream: 'recorded-answer',
  },
  'upstream-withdrew': {
    record: ({ reason }) => byGateway(withdrawnReason(reason)),
    resume: true,
    tellHost: ({ reason }) => reason,
    upstream: 'nothing',
  },
  'call-cancelled': {
    record: () => byGateway('the call was cancelled'),
    resume: true,
    tellHost: () => 'the call was cancelled',
    upstream: 'abandoned',
    why: () => 'the call was cancelled',
  },
  'upstream-gone': {
    record: ({ why }) => byGateway(upstreamGone(why)),
    resume: false,
    tellHost: ({ why }) => upstreamGone(why),
    upstream: 'nothing',
  },
  'session-closed': {
    record: ({ why }) => byGateway(why),
    resume: false,
    tellHost: false,
    upstream: 'abandoned',
    why: ({ why }) => why,
  },
  shutdown: {
    record: () => byGateway('the gateway is shutting down'),
    resume: false,
    tellHost: false,
    upstream: 'nothing',
  },
  nobody: {
    record: ({ reason }) => byGateway(reason, 'cancelled'),
    resume: true,
    tellHost: false,
    upstream: 'nobody-can-answer',
  },
  'settled-elsewhere': {
    record: ({ record }) => ({ to: record.state, answeredBy: record.answeredBy ?? { kind: 'gateway', reason: 'settled elsewhere' }, answer: record.answer ?? CANCEL }),
    resume: true,
    tellHost: ({ record }) => (record.answeredBy?.kind === 'operator' ? 'settled by an operator' : `the question was ${record.state} elsewhere`),
    upstream: 'recorded-answer',
    writes: false,
  },
};

/** The row of `outcome`, typed for it. */
export function effectsOf<O extends Outcome>(outcome: O): SettleEffects<O> {
  return SETTLE_EFFECTS[outcome.kind] as unknown as SettleEffects<O>;
}

/** Why a question of an upstream session that ended is void, as recorded and told to its host. */
function upstreamGone(why: string | undefined): string {
  return why === undefined ? 'the upstream went away' : `the upstream went away: ${why}`;
}
