/**
 * @module One call of a 2026-07-28 host on the stand-in session: the host request it answers now, the
 * questions the upstream asked during it (a round), and its parking between rounds (pair 4 of the bridge).
 */

import type { JsonObject, JsonRpcErrorObject, JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { errorResponse, isErrorResponse, isObject, resultResponse } from '../../protocol/jsonrpc.js';
import type { InputRequest } from '../../protocol/input-required.js';
import type { ModernSink } from '../../ports/host-contracts.js';

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

/** What the call needs from its owner (the stand-in's router). */
export interface CallOwner {
  /** How long the gateway waits, after a question, for more questions of the same round. */
  settleMs: number;
  /** Seals the handle of a round (the call is parked under it until `deadlineMs`). */
  park(call: ModernCall, deadlineMs: number): string;
  /** Cancels the call on the upstream side (the stand-in session's notifications/cancelled). */
  cancelUpstream(call: ModernCall, reason: string): void;
  /** The call is over: forget it. */
  ended(call: ModernCall): void;
  /** Makes a result fit for a modern host (resultType, cache hints, identity). */
  finish(method: string, result: JsonObject): JsonObject;
}

export class ModernCall {
  /** The id the stand-in session knows the call by (never the host's: two hosts may use the same one). */
  readonly internalId: string;
  readonly method: string;
  /** The upstream of a tools/call, prompts/get or resources/read (the calls that may ask); undefined for the rest. */
  readonly upstream: string | undefined;
  /** How long a parked round waits for the host's retry. */
  readonly deadlineMs: number;
  #owner: CallOwner;
  #exchange: Exchange | undefined;
  /** Questions of the current round by key (the id the stand-in session gave them). */
  #round = new Map<string, InputRequest>();
  #settle: NodeJS.Timeout | undefined;
  #deadline: NodeJS.Timeout | undefined;
  /** The final response when it came while the call was parked (an operator answered the last question). */
  #finished: JsonRpcResponse | undefined;
  #ended = false;

  constructor(input: { internalId: string; method: string; upstream: string | undefined; deadlineMs: number; exchange: Exchange; owner: CallOwner }) {
    this.internalId = input.internalId;
    this.method = input.method;
    this.upstream = input.upstream;
    this.deadlineMs = input.deadlineMs;
    this.#exchange = input.exchange;
    this.#owner = input.owner;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Whether questions of the upstream can reach the host during this call (inside an input_required result). */
  get asks(): boolean {
    return this.upstream !== undefined;
  }

  /** Whether the host holds a handle to it and no request of the host is attached. */
  get parked(): boolean {
    return !this.#ended && this.#exchange === undefined;
  }

  /** The questions the host is asked to answer now (for checking a retry's answers). */
  question(key: string): InputRequest | undefined {
    return this.#round.get(key);
  }

  // ---- from the stand-in session ------------------------------------------------------------------

  /** The upstream asked something during this call: it joins the round, sent once the upstream says no more. */
  onQuestion(request: JsonRpcRequest): void {
    if (this.#ended || typeof request.id !== 'string') return;
    const method = request.method as InputRequest['method'];
    const params = withoutEmptyMeta(request.params);
    this.#round.set(request.id, params === undefined ? { method } : { method, params });
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

  onResponse(response: JsonRpcResponse): void {
    if (this.#ended) return;
    if (!this.#exchange) {
      this.#finished = response; // kept for the retry; the deadline still ends it if none comes
      return;
    }
    this.#complete(this.#exchange, response);
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
    clearTimeout(this.#settle);
    this.#settle = setTimeout(() => this.#offer(), this.#owner.settleMs);
    this.#settle.unref();
  }

  /** Answers the attached host request with the round's questions and a handle, and parks the call. */
  #offer(): void {
    this.#settle = undefined;
    const exchange = this.#exchange;
    if (this.#ended || !exchange || this.#round.size === 0) return;
    const requestState = this.#owner.park(this, this.deadlineMs);
    const inputRequests: JsonObject = {};
    for (const [key, request] of this.#round) inputRequests[key] = request.params === undefined ? { method: request.method } : { method: request.method, params: request.params };
    this.#exchange = undefined;
    exchange.sink.respond(resultResponse(exchange.hostId, this.#owner.finish(this.method, { resultType: 'input_required', inputRequests, requestState })));
    this.#deadline = setTimeout(() => {
      if (!this.parked) return;
      this.#end();
      this.#owner.cancelUpstream(this, 'the host did not continue the call before its deadline');
    }, this.deadlineMs);
    this.#deadline.unref();
  }

  #complete(exchange: Exchange, response: JsonRpcResponse): void {
    this.#end();
    if (isErrorResponse(response)) exchange.sink.respond(errorResponse(exchange.hostId, response.error));
    else exchange.sink.respond(resultResponse(exchange.hostId, this.#owner.finish(this.method, response.result)));
  }

  #end(): void {
    this.#ended = true;
    this.#exchange = undefined;
    clearTimeout(this.#settle);
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
