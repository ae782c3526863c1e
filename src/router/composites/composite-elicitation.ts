/**
 * @module The gateway's side of the composer's elicitation seam: each elicit step becomes a question like any
 * other (the desk records it, the route policy picks the host or an operator, it is translated for the host's
 * revision and its answer checked), asked on the stream of the composite's host call.
 */

import type { ElicitationRequest, ElicitationRequester, ElicitationResult } from '../../composite/elicitation-seam.js';
import type { ProtocolError } from '../../protocol/errors.js';
import type { JsonObject, JsonRpcId } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { LATEST_LEGACY_REVISION } from '../../protocol/revisions.js';
import type { QuestionRoute } from '../../questions/question-route.js';
import type { QuestionAsker } from '../../ports/question-asker.js';

/** What the adapter needs of the host session. */
export interface QuestionDesk {
  deliverQuestion(asker: QuestionAsker, request: { jsonrpc: '2.0'; id: JsonRpcId; method: string; params: JsonObject }, route: QuestionRoute): void;
  withdrawQuestion(asker: QuestionAsker, id: JsonRpcId, reason: string): boolean;
}

/** An answer in the composer's terms, with who gave it and the desk's record of the question. */
export interface AskedResult extends ElicitationResult {
  answeredBy?: string;
}

/** Extra time the desk gives a composite's question beyond the step's timeout, so the step's own timeout fires first. */
const BROKER_GRACE_MS = 5_000;

/**
 * One composite run's questions. It is the asker the host session answers (a QuestionAsker) and the
 * requester the composer calls (an ElicitationRequester).
 */
export class CompositeQuestions implements ElicitationRequester, QuestionAsker {
  /** Questions this run has asked so far (their ids are this run's key and a count). */
  #asked = 0;
  readonly spec: { readonly name: string };
  readonly key: string;
  readonly protocolVersion = LATEST_LEGACY_REVISION;
  #desk: QuestionDesk;
  #streamId: JsonRpcId;
  #composite: string;
  #waiting = new Map<string, { resolve: (result: AskedResult) => void }>();
  /** Desk question ids, by the id the question was asked under. */
  readonly questionIds = new Map<string, string>();
  /** The step that asked, by the id the question was asked under (when the composer names it in `meta.step`). */
  #steps = new Map<string, string>();
  /** Called once a question is recorded: the composer's step record gets its question id. */
  onRecorded: ((askId: string, questionId: string) => void) | undefined;

  constructor(input: { composite: string; runId: string; streamId: JsonRpcId; desk: QuestionDesk }) {
    // Route settings are looked up under the composite's name, as a tool of upstream `composite`.
    this.spec = { name: 'composite' };
    this.key = `composite:${input.runId}`;
    this.#composite = input.composite;
    this.#streamId = input.streamId;
    this.#desk = input.desk;
  }

  elicit(request: ElicitationRequest, options: { signal: AbortSignal; timeoutMs: number }): Promise<AskedResult> {
    this.#asked += 1;
    const id = `${this.key}:q${this.#asked}`;
    if (options.signal.aborted) return Promise.reject(abortError());
    return new Promise<AskedResult>((resolve, reject) => {
      const onAbort = () => {
        if (!this.#waiting.delete(id)) return;
        this.#desk.withdrawQuestion(this, id, 'the composite step timed out or was stopped');
        reject(abortError());
      };
      this.#waiting.set(id, {
        resolve: (result) => {
          options.signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
      });
      options.signal.addEventListener('abort', onAbort, { once: true });
      const params: JsonObject = { mode: 'form', message: request.message, requestedSchema: request.requestedSchema };
      const step = request.meta?.step;
      if (typeof step === 'string') this.#steps.set(id, step);
      this.#desk.deliverQuestion(this, { jsonrpc: '2.0', id, method: 'elicitation/create', params }, {
        callId: undefined,
        relatedRequestId: this.#streamId,
        pause: [],
        timeoutMs: options.timeoutMs + BROKER_GRACE_MS,
        tool: this.#composite,
      });
    });
  }

  // ---- QuestionAsker: how the host session answers ------------------------------------------------

  respond(id: JsonRpcId, result: JsonObject, answeredBy?: string): void {
    const waiting = this.#take(id);
    if (!waiting) return;
    const action = result.action === 'accept' || result.action === 'decline' ? result.action : 'cancel';
    const answer: AskedResult = { action };
    if (isObject(result.content)) answer.content = result.content;
    else if (action === 'accept' && result.content !== undefined) answer.content = result.content as JsonObject; // the composer reports and replaces it
    if (answeredBy !== undefined) answer.answeredBy = answeredBy;
    waiting.resolve(answer);
  }

  /** An error answer (a host that failed, nobody to ask): the composer sees a cancel. */
  respondError(id: JsonRpcId, error: ProtocolError): void {
    const waiting = this.#take(id);
    waiting?.resolve({ action: 'cancel', answeredBy: `nobody (${error.message})` });
  }

  /** The step that asked question `askId`, when the composer said. */
  stepOf(askId: string): string | undefined {
    return this.#steps.get(askId);
  }

  recorded(id: JsonRpcId, questionId: string): void {
    if (typeof id !== 'string') return;
    this.questionIds.set(id, questionId);
    this.onRecorded?.(id, questionId);
  }

  pause(): void {
    // No upstream call waits on a composite's question: its clock is the step's own timeout.
  }

  resume(): void {}

  async notify(): Promise<void> {
    // Progress a host reports about a question has no one to go to.
  }

  #take(id: JsonRpcId): { resolve: (result: AskedResult) => void } | undefined {
    if (typeof id !== 'string') return undefined;
    const waiting = this.#waiting.get(id);
    this.#waiting.delete(id);
    return waiting;
  }
}

function abortError(): Error {
  const error = new Error('The question was withdrawn: its step timed out or the call was stopped');
  error.name = 'AbortError';
  return error;
}
