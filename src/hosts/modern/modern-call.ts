/**
 * @module One call of a 2026-07-28 host: the host request it answers now, the questions asked during it (a
 * round, offered as input_required once the upstream has said all it says in one turn), and its parking between
 * rounds, under a handle the host's retry redeems.
 */

import type { JsonObject, JsonRpcErrorObject, JsonRpcId, JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { errorResponse, isObject, resultResponse } from '../../protocol/jsonrpc.js';
import type { InputRequest } from '../../protocol/input-required.js';
import type { ModernSink } from '../../ports/host-contracts.js';
import type { HostQuestion } from '../../ports/host-port.js';

/** The host request a call answers at the moment: the first one, or the retry that resumed it. */
export interface Exchange {
  /** The host's JSON-RPC id of that request. */
  hostId: JsonRpcId;
  sink: ModernSink;
  /** Whether the request asked for log lines (an envelope logLevel): without it none may be sent. */
  wantsLogs: boolean;
  /** The request's own progress token: progress of the call reaches the host under it, and only if it has one. */
  progressToken?: string | number;
}

/** How a call ends: the result its upstream (or composite) gave, or the error. */
export type CallOutcome = { result: JsonObject } | { error: JsonRpcErrorObject };

/** What the call needs from its owner (modern-hosts.ts, for the principal's session). */
export interface CallOwner {
  /**
   * How long the gateway waits, after a question that says more may follow (a legacy upstream's burst), for more
   * of the same round; 0: until the end of the next I/O turn (what the upstream wrote with it has been read by
   * then). A round of no such question is offered at the end of the event loop's turn.
   */
  settleMs: number;
  /** Seals the handle of a round: the call is parked under it until `deadlineMs`. */
  park(call: ModernCall): { handle: string; deadlineMs: number };
  /** Cancels the call on the upstream side (as the host's own cancellation would). */
  cancelUpstream(call: ModernCall, reason: string): void;
  /** The call is over: forget it. */
  ended(call: ModernCall): void;
  /** Makes a result fit for a modern host (resultType, cache hints, identity). */
  finish(method: string, result: JsonObject): JsonObject;
}

export class ModernCall {
  /** The id the router knows the call by (never the host's: two hosts may use the same one). */
  readonly internalId: string;
  readonly method: string;
  /** Whether questions can reach the host during this call (tools/call, prompts/get, resources/read). */
  readonly asks: boolean;
  #owner: CallOwner;
  #exchange: Exchange | undefined;
  /** Questions of the current round by key (the key the desk gave them). */
  #round = new Map<string, InputRequest>();
  #settle: NodeJS.Timeout | NodeJS.Immediate | undefined;
  /** Whether a question of the current round said more may follow (then the round waits `settleMs`). */
  #gathering = false;
  #deadline: NodeJS.Timeout | undefined;
  /** How the call ended when it did while parked (an operator answered the last question). */
  #finished: CallOutcome | undefined;
  #ended = false;

  constructor(input: { internalId: string; method: string; asks: boolean; exchange: Exchange; owner: CallOwner }) {
    this.internalId = input.internalId;
    this.method = input.method;
    this.asks = input.asks;
    this.#exchange = input.exchange;
    this.#owner = input.owner;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Whether the host holds a handle to it and no request of the host is attached. */
  get parked(): boolean {
    return !this.#ended && this.#exchange === undefined;
  }

  /** The questions the host is asked to answer now (for checking a retry's answers). */
  question(key: string): InputRequest | undefined {
    return this.#round.get(key);
  }

  // ---- from the router ------------------------------------------------------------------------------

  /** A question asked during this call: it joins the round, offered once the upstream says no more this turn. */
  onQuestion(question: HostQuestion): void {
    if (this.#ended) return;
    const method = question.method as InputRequest['method'];
    const params = withoutEmptyMeta(question.params);
    this.#round.set(question.key, params === undefined ? { method } : { method, params });
    if (question.more) this.#gathering = true;
    this.#scheduleOffer();
  }

  /** A question of the round was settled elsewhere (an operator, expiry, the upstream withdrew it). */
  onQuestionWithdrawn(key: unknown): void {
    if (typeof key === 'string') this.#round.delete(key);
  }

  onNotification(message: JsonRpcNotification): void {
    const exchange = this.#exchange;
    if (this.#ended || !exchange) return; // a parked call has no stream: progress and logs of that time are lost
    if (message.method === 'notifications/message' && !exchange.wantsLogs) return;
    if (message.method === 'notifications/progress') {
      if (exchange.progressToken === undefined) return;
      exchange.sink.notify({ ...message, params: { ...message.params, progressToken: exchange.progressToken } });
      return;
    }
    exchange.sink.notify(message);
  }

  /** The call's result (or error) came: to the attached host request, or kept for the retry while parked. */
  finish(outcome: CallOutcome): void {
    if (this.#ended) return;
    if (!this.#exchange) {
      this.#finished = outcome; // kept for the retry; the deadline still ends it if none comes
      return;
    }
    this.#complete(this.#exchange, outcome);
  }

  // ---- from the host ------------------------------------------------------------------------------

  /**
   * The host's retry redeemed this call's handle: it answers the host from now on. The answers (already
   * checked) are handed to `answer`; keys of the round left unanswered are asked again.
   */
  resume(exchange: Exchange, answers: Map<string, JsonObject>, answer: (key: string, result: JsonObject) => void): void {
    clearTimeout(this.#deadline);
    this.#deadline = undefined;
    this.#exchange = exchange;
    if (this.#finished) {
      this.#complete(exchange, this.#finished);
      return;
    }
    for (const [key, result] of answers) {
      if (!this.#round.delete(key)) continue;
      answer(key, result);
    }
    if (this.#round.size > 0) this.#scheduleOffer();
  }

  /**
   * The host's retry (which redeemed this call's handle) answered `key` against its schema: that answer is
   * handed to `answer` all the same (the session settles the question, the upstream gets -32602), the
   * retry gets `error`, and the call ends upstream (its other questions are withdrawn with it).
   */
  refuseAnswer(exchange: Exchange, key: string, result: JsonObject, error: JsonRpcErrorObject, answer: (key: string, result: JsonObject) => void): void {
    if (this.#ended) return;
    const asked = this.#round.delete(key);
    this.#end();
    if (asked) answer(key, result);
    exchange.sink.respond(errorResponse(exchange.hostId, error));
    this.#owner.cancelUpstream(this, `the host's answer to ${key} was invalid`);
  }

  /**
   * The host dropped the stream of `exchange` (or sent notifications/cancelled over stdio): the call stops
   * upstream, unless that request was already answered (a parked call waits for its retry, not its stream).
   */
  cancel(exchange: Exchange, reason: string): void {
    if (this.#ended || this.#exchange !== exchange) return;
    this.#end();
    this.#owner.cancelUpstream(this, reason);
  }

  /** The call cannot go on for this host (it lacks a capability the upstream needs): it ends with `error`, and stops upstream. */
  fail(error: JsonRpcErrorObject, reason: string): void {
    if (this.#ended) return;
    const exchange = this.#exchange;
    this.#end();
    if (exchange) exchange.sink.respond(errorResponse(exchange.hostId, error));
    this.#owner.cancelUpstream(this, reason);
  }

  // ---- inside -------------------------------------------------------------------------------------

  #scheduleOffer(): void {
    this.#clearSettle();
    if (this.#gathering && this.#owner.settleMs > 0) {
      const timer = setTimeout(() => this.#offer(), this.#owner.settleMs);
      timer.unref();
      this.#settle = timer;
    } else if (this.#gathering) {
      // More of the burst may be on its way: what the upstream wrote with it is read by the next I/O turn's end.
      this.#settle = setImmediate(() => {
        this.#settle = setImmediate(() => this.#offer());
      });
    } else {
      this.#settle = setImmediate(() => this.#offer());
    }
  }

  #clearSettle(): void {
    const settle = this.#settle;
    if (settle === undefined) return;
    this.#settle = undefined;
    if ('hasRef' in settle && 'refresh' in settle) clearTimeout(settle);
    else clearImmediate(settle as NodeJS.Immediate);
  }

  /** Answers the attached host request with the round's questions and a handle, and parks the call. */
  #offer(): void {
    this.#settle = undefined;
    this.#gathering = false;
    const exchange = this.#exchange;
    if (this.#ended || !exchange || this.#round.size === 0) return;
    const { handle: requestState, deadlineMs } = this.#owner.park(this);
    const inputRequests: JsonObject = {};
    for (const [key, request] of this.#round) inputRequests[key] = request.params === undefined ? { method: request.method } : { method: request.method, params: request.params };
    this.#exchange = undefined;
    exchange.sink.respond(resultResponse(exchange.hostId, this.#owner.finish(this.method, { resultType: 'input_required', inputRequests, requestState })));
    this.#deadline = setTimeout(() => {
      if (!this.parked) return;
      this.#end();
      this.#owner.cancelUpstream(this, 'the host did not continue the call before its deadline');
    }, deadlineMs);
    this.#deadline.unref();
  }

  #complete(exchange: Exchange, outcome: CallOutcome): void {
    this.#end();
    if ('error' in outcome) exchange.sink.respond(errorResponse(exchange.hostId, outcome.error));
    else exchange.sink.respond(resultResponse(exchange.hostId, this.#owner.finish(this.method, outcome.result)));
  }

  #end(): void {
    this.#ended = true;
    this.#exchange = undefined;
    this.#clearSettle();
    clearTimeout(this.#deadline);
    this.#round.clear();
    this.#owner.ended(this);
  }
}

/**
 * The params of an embedded input request: without the progress token the gateway gave the question (a
 * 2026-07-28 host sends no progress about an input request), and without `_meta` when nothing else is in it.
 */
function withoutEmptyMeta(params: JsonObject | undefined): JsonObject | undefined {
  if (params === undefined || !isObject(params._meta)) return params;
  const { progressToken: _token, ...meta } = params._meta;
  const { _meta: _old, ...rest } = params;
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}
