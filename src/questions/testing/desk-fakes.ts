/** @module Test fakes for the question desk: an asker and a host session that record what the desk does to them. */

import type { QuestionAsker } from '../../ports/question-asker.js';
import type { ProtocolError } from '../../protocol/errors.js';
import type { JsonObject, JsonRpcId } from '../../protocol/jsonrpc.js';
import type { DeskHost } from '../question-route.js';

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
