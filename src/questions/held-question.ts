/** @module What the desk holds for each open question: who asked and waits, the calls paused for it, where the host holds it, and what its answer must satisfy. */

import type { Audience, QuestionMethod } from './question.js';
import type { QuestionAsker } from '../ports/question-asker.js';
import type { TraceSpan } from '../core/tracing/trace-port.js';
import type { ProtocolError } from '../protocol/errors.js';
import type { JsonObject, JsonRpcId } from '../protocol/jsonrpc.js';
import type { AskedSchemas, OperatorAnswerCheck, QuestionAnswer } from '../translation/answers/answer-check.js';
import type { DeskHost } from './question-route.js';

/** The count of host keys a desk issued, shared by all its seats. */
export interface HostKeyCount {
  issued: number;
}

/**
 * The questions one host session holds: the `sb-N` keys it knows them by, and every open question that came
 * through it. Keys come from the desk's own count, so no two sessions share one (an answer on the wrong
 * session names nothing there); each session knows only its own.
 */
export class HostSeat {
  readonly host: DeskHost;
  /** Host key to question id, while the host holds the question. */
  readonly keys = new Map<string, string>();
  /** Every open question that came through this session, by id (put to the host or not). */
  readonly open = new Map<string, HeldQuestion>();
  #count: HostKeyCount;

  constructor(host: DeskHost, count: HostKeyCount) {
    this.host = host;
    this.#count = count;
  }

  /** A fresh key for a request to this host. */
  nextKey(): string {
    this.#count.issued += 1;
    return `sb-${this.#count.issued}`;
  }
}

export interface HeldQuestion {
  /** The record's id; for a request relayed without a record (a ping), an id of the desk's own. */
  id: string;
  recorded: boolean;
  /** The method asked (a question method, or a ping for an unrecorded relay). */
  method: QuestionMethod | string;
  /** As the upstream asked. */
  params: JsonObject;
  /** Who waits for the answer, under which request id (none for a 2026-07-28 host's relayed round: its retry carries the answer). */
  asker: QuestionAsker | undefined;
  upstreamId: JsonRpcId | undefined;
  /** The host session it came through, if any. */
  seat: HostSeat | undefined;
  /** The host session named as the answerer when the host answers. */
  hostSessionId: string | undefined;
  /** The key the host knows it by, while the host holds it. */
  hostKey: string | undefined;
  /** The call it was attributed to, and the calls paused until it settles. */
  callId: number | undefined;
  paused: number[];
  /** The host request whose stream carries it. */
  relatedRequestId: JsonRpcId | undefined;
  /** The upstream's own progress token, when the question carried one (the host's progress goes back under it). */
  upstreamProgressToken: unknown;
  /** What the host's answer must satisfy. */
  asked: AskedSchemas;
  audience: Audience;
  audienceReason: string | undefined;
  /** Why the host could not be sent it, when its plan refused it (then a 2026-07-28 host is told it lacks the capability). */
  hostCouldNot: string | undefined;
  /** The host could have taken it but cannot be reached: the error the upstream gets if nobody else answers. */
  unreachable: ProtocolError | undefined;
  /** Checks an operator's answer against what the upstream asked. */
  checkOperatorAnswer(answer: QuestionAnswer): OperatorAnswerCheck;
  timer: NodeJS.Timeout | undefined;
  /** Created committed but not yet known on disk (put to its host only): resolves once it is; its settlement waits for it. */
  onDisk: Promise<void> | undefined;
  /** The span of its life (tracing on, recorded questions only). */
  span?: TraceSpan | undefined;
}
