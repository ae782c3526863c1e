/** @module What the desk is handed to open a question (or to hold a request relayed without a record), and the held question made of it. */

import type { ConsentTo, QuestionMethod, QuestionOrigin, QuestionRecord, RoutePolicy } from './question.js';
import type { QuestionDelivery } from '../ports/host-port.js';
import type { QuestionAsker } from '../ports/question-asker.js';
import type { TraceSpan } from '../core/tracing/trace-port.js';
import type { ProtocolError } from '../protocol/errors.js';
import type { JsonObject, JsonRpcId } from '../protocol/jsonrpc.js';
import type { AskedSchemas, OperatorAnswerCheck, QuestionAnswer } from '../translation/answers/answer-check.js';
import type { HeldQuestion, HostSeat } from './held-question.js';

/** Where the question travels to a host: who asked and waits, the host session, the calls it belongs to. */
interface Path {
  asker?: QuestionAsker;
  upstreamId?: JsonRpcId;
  seat?: HostSeat;
  callId?: number;
  /** Calls whose timeout stops until the question settles. */
  paused?: number[];
  relatedRequestId?: JsonRpcId;
  upstreamProgressToken?: unknown;
  /** What a host's answer must satisfy (the form sent, the upstream's own when downgraded). */
  asked?: AskedSchemas;
  /** The span of the upstream request it belongs to (tracing on, the call known): the question's span is its child. */
  trace?: TraceSpan;
}

/** A question as the router hands it over. */
export interface OpenRequest extends Path {
  method: QuestionMethod;
  /** As the upstream asked. */
  params: JsonObject;
  origin: QuestionOrigin;
  route: RoutePolicy;
  /** Who takes a consent question the host could answer (`questions.consent`); default the host. */
  consentTo?: ConsentTo;
  timeoutMs: number;
  /** Undefined when the host can receive it (then `hostParams` is the translated form); else why not. */
  hostCannot?: string;
  hostParams?: JsonObject;
  /** Why the host's plan refused it, when it did (a 2026-07-28 host is then told what it lacks). */
  hostCouldNot?: string;
  /** The host could have taken it but cannot be reached now. */
  unreachable?: ProtocolError;
  /**
   * How the host is given it at once when the audience includes the host: as a request on its stream or inside an
   * `input_required` result (2026-07-28), under `key`, else under a fresh key of the seat's, which `open` resolves.
   */
  delivery?: { via: QuestionDelivery; key?: string };
  /** Checks an operator's answer against what the upstream asked (limits, schema, result shape). */
  checkOperatorAnswer(answer: QuestionAnswer): OperatorAnswerCheck;
}

/** A request relayed to the host with no record (a ping): it still ends through the desk. */
export interface RelayRequest extends Path {
  asker: QuestionAsker;
  upstreamId: JsonRpcId;
  seat: HostSeat;
  method: string;
  params: JsonObject;
  paused: number[];
}

const NO_OPERATOR = (): OperatorAnswerCheck => ({ ok: false, reason: 'this request is not a question an operator can answer' });

/** The desk's hold on a question: `record` undefined for a relayed request without a record. */
export function heldFrom(
  request: Path & { method: string; params: JsonObject; origin: QuestionOrigin; hostCouldNot?: string; unreachable?: ProtocolError; checkOperatorAnswer?: OpenRequest['checkOperatorAnswer'] },
  record: QuestionRecord | undefined,
  hostKey: string | undefined,
): HeldQuestion {
  return {
    id: record?.id ?? '',
    recorded: record !== undefined,
    method: request.method,
    params: request.params,
    asker: request.asker,
    upstreamId: request.upstreamId,
    seat: request.seat,
    hostSessionId: request.origin.hostSessionId,
    hostKey,
    callId: request.callId,
    paused: request.paused ?? [],
    relatedRequestId: request.relatedRequestId,
    upstreamProgressToken: request.upstreamProgressToken,
    asked: request.asked ?? { requestedSchema: undefined, upstreamSchema: undefined },
    audience: record?.audience ?? 'host',
    audienceReason: record?.audienceReason,
    hostCouldNot: request.hostCouldNot,
    unreachable: request.unreachable,
    checkOperatorAnswer: request.checkOperatorAnswer ?? NO_OPERATOR,
    timer: undefined,
    onDisk: undefined,
  };
}
