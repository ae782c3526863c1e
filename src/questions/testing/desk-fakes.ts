/** @module Test fakes for the question desk: an asker and a host session that record what the desk does to them, and a form question as a relay opens it. */

import type { QuestionAsker } from '../../ports/question-asker.js';
import type { ProtocolError } from '../../protocol/errors.js';
import type { JsonObject, JsonRpcId } from '../../protocol/jsonrpc.js';
import type { DeskHost } from '../question-route.js';
import type { HostSeat } from '../held-question.js';
import type { OpenRequest } from '../open-request.js';
import { checkOperatorAnswer } from '../../translation/answers/answer-check.js';

/** What the asker received for one question: a result (and who gave it) or an error. */
export type Reply = { id: JsonRpcId; result: JsonObject; answeredBy?: string } | { id: JsonRpcId; error: ProtocolError };

export class FakeAsker implements QuestionAsker {
  readonly spec = { name: 'desk' };
  readonly key = 'upstream:desk';
  readonly protocolVersion = '2025-06-18';
  readonly replies: Reply[] = [];
  readonly paused: number[] = [];
  readonly resumed: number[] = [];
  readonly recordedAs = new Map<JsonRpcId, string>();

  respond(id: JsonRpcId, result: JsonObject, answeredBy?: string): void {
    this.replies.push(answeredBy === undefined ? { id, result } : { id, result, answeredBy });
  }

  respondError(id: JsonRpcId, error: ProtocolError): void {
    this.replies.push({ id, error });
  }

  pause(id: number): void {
    this.paused.push(id);
  }

  resume(id: number): void {
    this.resumed.push(id);
  }

  recorded(id: JsonRpcId, questionId: string): void {
    this.recordedAs.set(id, questionId);
  }

  async notify(): Promise<void> {}
}

export interface FakeHost extends DeskHost {
  closed: boolean;
  /** The questions withdrawn from it: the key, the reason, the call whose stream carried it. */
  readonly withdrawn: { key: string; reason: string | undefined; call: JsonRpcId | undefined }[];
  readonly lacked: { callId: JsonRpcId; method: string }[];
}

export function fakeHost(id = 's-1'): FakeHost {
  const withdrawn: FakeHost['withdrawn'] = [];
  const lacked: FakeHost['lacked'] = [];
  return {
    id,
    closed: false,
    withdrawn,
    lacked,
    withdraw: (key, reason, call) => withdrawn.push({ key, reason, call }),
    lacks: (callId, method) => lacked.push({ callId, method }),
  };
}

/**
 * A form question of upstream `desk` (revision 2025-06-18) during call 7 of `host`, put to it at once on the stream of
 * its call `call-1`, with `asker` waiting under id 41; route `both` unless `overrides` say otherwise.
 */
export function formQuestion(seat: HostSeat, asker: FakeAsker, requestedSchema: JsonObject, overrides: Partial<OpenRequest> = {}): OpenRequest {
  const params = { message: 'Ticket?', requestedSchema };
  return {
    method: 'elicitation/create',
    params,
    origin: { upstream: 'desk', hostSessionId: seat.host.id, hostRevision: '2025-06-18', upstreamRevision: '2025-06-18' },
    route: 'both',
    timeoutMs: 60_000,
    hostParams: params,
    delivery: { via: 'request' },
    asker,
    upstreamId: 41,
    seat,
    callId: 7,
    paused: [7],
    relatedRequestId: 'call-1',
    asked: { requestedSchema, upstreamSchema: undefined },
    checkOperatorAnswer: (answer) => checkOperatorAnswer('elicitation/create', params, '2025-06-18', answer),
    ...overrides,
  };
}
