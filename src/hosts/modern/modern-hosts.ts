/**
 * @module Serves 2026-07-28 hosts: server/discover, every other request through a stand-in session, the
 * retries that continue a parked call (pair 4) or carry a wrapped upstream state (pair 2); the stand-ins and the
 * listen streams it hands requests to are held by stand-in-pool.ts and listen-streams.ts.
 */

import { CountingIds, systemClock } from '../../core/clock.js';
import { MAX_HANDLE_TTL_MS, openHandle, sealHandle } from '../../bridge/request-state.js';
import { redeemHandle } from '../../bridge/redeem-handle.js';
import { requestStateError } from '../../bridge/handle-errors.js';
import type { HandleKeyRing } from '../../bridge/handle-keys.js';
import type { HandleLedger } from '../../bridge/handle-ledger.js';
import { RpcCode } from '../../protocol/errors.js';
import type { InputRequest } from '../../protocol/input-required.js';
import { isInputRequestMethod, mayRequireInput } from '../../protocol/input-required.js';
import { requiredCapabilities } from '../../protocol/input-capabilities.js';
import { inputResponseProblem, originalParams, readRetryParams } from '../../protocol/input-retry.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { errorResponse, isObject, resultResponse } from '../../protocol/jsonrpc.js';
import { invalidParamsError, missingCapabilityError } from '../../protocol/modern-errors.js';
import { checkParamHeaders } from '../../protocol/param-headers.js';
import { stripRequestEnvelope } from '../../protocol/request-envelope.js';
import { SUPPORTED_REVISIONS } from '../../protocol/revisions.js';
import type { HostChannel, ModernExchange, ModernRequestContext, ModernSink } from '../../ports/host-contracts.js';
import { toProtocolError } from '../../protocol/gateway-errors.js';
import type { GatewayHostSession, ModernHostHooks } from '../legacy/host-session.js';
import type { Logger } from '../../core/log.js';
import type { CallOwner, Exchange } from './modern-call.js';
import { ModernCall } from './modern-call.js';
import { modernResult } from './modern-result.js';
import type { StandIn } from './stand-in.js';
import { internalRequestId } from './stand-in.js';
import { StandInPool, tooManyStandIns } from './stand-in-pool.js';
import { ListenStreams } from './listen-streams.js';
import { WrappedRounds } from './wrapped-rounds.js';
import type { QuestionPolicy } from '../../questions/route-policy.js';
import type { QuestionDesk } from '../../questions/desk.js';
import type { HostVerdict } from '../../questions/host-answers.js';
import type { SessionLimits } from '../../ports/session-limits.js';

export interface ModernHostsOptions {
  /** Opens the host session behind a stand-in (the gateway registers it like any host session). */
  openSession(channel: HostChannel, hooks: ModernHostHooks): GatewayHostSession;
  keys: HandleKeyRing;
  ledger: HandleLedger;
  /** The desk every question is opened at, and the route policy. */
  questions: { desk: QuestionDesk; policy: QuestionPolicy };
  serverInfo: JsonObject;
  serverCapabilities(): JsonObject;
  instructions(): string | undefined;
  /** Settles once every upstream's first probe ended (each bounded by its connect timeout): server/discover waits for it. */
  upstreamsProbed(): Promise<void>;
  /** How long a round waits for the host's retry (the question timeout of that upstream and tool). */
  roundDeadlineMs(upstream: string, tool: string | undefined): number;
  /** A stand-in with no call and no listen stream for this long is closed (with its upstream sessions); 0 = never. */
  idleTimeoutMs: number;
  logger: Logger;
  /** How long the gateway waits after a question for more of the same round (default 25 ms). */
  settleMs?: number;
  /** The count every stand-in is admitted by (caps on stand-ins, on each principal and on all host sessions). */
  limits: SessionLimits;
  now?: () => number;
}

/** Methods of the sessionful revisions that 2026-07-28 removed. */
const REMOVED = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

const NOTHING: ModernExchange = { cancel: () => undefined };

export class ModernHosts {
  #options: ModernHostsOptions;
  /** Parked calls by the id of the handle that continues them (only the latest round's). */
  #parked = new Map<string, { call: ModernCall; standIn: StandIn }>();
  /** Pair 2: rounds of modern upstreams relayed with their state wrapped. */
  #wrapped: WrappedRounds;
  #handleOf = new WeakMap<ModernCall, string>();
  #pool: StandInPool;
  #streams: ListenStreams;
  #closed = false;
  /** Numbers the stand-ins' own requests (`m-N`). */
  #ids = new CountingIds();

  constructor(options: ModernHostsOptions) {
    this.#options = options;
    this.#wrapped = new WrappedRounds({ questions: options.questions, keys: options.keys, logger: options.logger, now: () => this.#now() });
    this.#pool = new StandInPool({
      openSession: (channel, hooks) => options.openSession(channel, hooks),
      hooksFor: (principal, standIn) => this.#hooksFor(principal, standIn),
      limits: options.limits,
      idleTimeoutMs: options.idleTimeoutMs,
      logger: options.logger,
      ids: this.#ids,
      onBroadcast: (from, message) => this.#streams.broadcast(from, message),
      onClosed: (closed) => this.#streams.endFor(closed),
      now: () => this.#now(),
    });
    this.#streams = new ListenStreams({
      serverCapabilities: () => options.serverCapabilities(),
      standIn: (context) => this.#pool.get(context) ?? tooManyStandIns(),
      used: (standIn) => this.#pool.used(standIn),
      logger: options.logger,
    });
  }

  serve(request: JsonRpcRequest, context: ModernRequestContext, sink: ModernSink): ModernExchange {
    const fail = (error: JsonRpcErrorObject): ModernExchange => {
      sink.respond(errorResponse(request.id, error));
      return NOTHING;
    };
    if (this.#closed) return fail({ code: RpcCode.InternalError, message: 'The gateway is shutting down' });
    if (request.method === 'server/discover') {
      // Like initialize: answered with what the upstreams' first probes found.
      void this.#options.upstreamsProbed().then(() => sink.respond(resultResponse(request.id, this.#finish('server/discover', this.#discover()))));
      return NOTHING;
    }
    if (REMOVED.has(request.method)) return fail({ code: RpcCode.MethodNotFound, message: `Method not found: ${request.method} is not part of revision 2026-07-28` });
    const params = stripRequestEnvelope(request.params) ?? {};
    if (request.method === 'subscriptions/listen') return this.#streams.listen(request.id, params, context, sink);
    const retry = readRetryParams(params);
    if (!retry.ok) return fail(invalidParamsError('params', `Invalid params: ${retry.reason}`));
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    const exchange: Exchange = { hostId: request.id, sink, wantsLogs: context.envelope.logLevel !== undefined, ...(typeof token === 'string' || typeof token === 'number' ? { progressToken: token } : {}) };
    const standIn = this.#pool.get(context);
    if (!standIn) return fail(tooManyStandIns());
    const state = retry.retry.requestState;
    const started = this.#checkParamHeaders(standIn, request.method, params, context, exchange).then((ok) => {
      if (!ok) return undefined;
      return state === undefined ? this.#start(standIn, request.method, params, exchange) : this.#continue(standIn, request.method, params, state, exchange, context);
    });
    let call: ModernCall | undefined;
    let cancelled: string | undefined;
    void started
      .then((c) => {
        call = c;
        if (cancelled !== undefined) c?.cancel(exchange, cancelled);
      })
      .catch((error: unknown) => {
        const protocolError = toProtocolError(error);
        if (protocolError.code === RpcCode.InternalError) this.#options.logger.log('error', `modern ${request.method} failed`, { error: String(error) });
        sink.respond(errorResponse(request.id, protocolError.toJson()));
      });
    return {
      cancel: (reason) => {
        cancelled = reason;
        call?.cancel(exchange, reason);
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#streams.close();
    await this.#pool.close();
  }

  // ---- requests -----------------------------------------------------------------------------------

  /** A first request: handed to the stand-in session under an id of its own. */
  async #start(standIn: StandIn, method: string, params: JsonObject, exchange: Exchange): Promise<ModernCall> {
    const target = mayRequireInput(method) ? await standIn.session.upstreamOf(method, params) : undefined;
    const internalId = internalRequestId(this.#ids);
    const deadlineMs = target === undefined ? 0 : Math.min(MAX_HANDLE_TTL_MS, this.#options.roundDeadlineMs(target.upstream, target.tool));
    const call = new ModernCall({ internalId, method, upstream: target?.upstream, deadlineMs, exchange, owner: this.#ownerFor(standIn, params) });
    standIn.calls.set(internalId, call);
    this.#pool.used(standIn);
    // The stand-in always asks for progress under the call's own id: whichever request of the host (the first, or
    // a retry) is attached gets it under its own token, or not at all.
    const meta = isObject(params._meta) ? params._meta : {};
    standIn.session.receive({ jsonrpc: '2.0', id: internalId, method, params: { ...params, _meta: { ...meta, progressToken: internalId } } });
    return call;
  }

  /**
   * A retry with a requestState. A wrapped handle (pair 2) gives the upstream its own state back; a parked
   * one (pair 4) continues the parked call with the answers, once each is checked like any host's answer
   * and the handle is used up. A refused handle touches nothing. An answer that breaks its schema settles
   * its question as any host's does (issue 11 item 13): the handle is used up, the upstream gets -32602,
   * the retry too, and the call ends.
   */
  async #continue(standIn: StandIn, method: string, params: JsonObject, state: string, exchange: Exchange, context: ModernRequestContext): Promise<ModernCall | undefined> {
    const original = originalParams(params);
    const { upstream } = await standIn.session.upstreamOf(method, original);
    const expected = { principal: context.principal, upstream, method, params: original };
    const now = this.#now();
    const opened = openHandle(state, this.#options.keys, expected, now);
    if (!opened.ok) return this.#refuse(exchange, requestStateError(opened.reason));
    if (opened.payload.kind === 'wrapped') {
      const checked = this.#wrapped.check(opened.payload.id, params.inputResponses);
      if (!checked.ok) return this.#refuse(exchange, invalidParamsError(`inputResponses.${checked.key}`, `Invalid params: inputResponses.${checked.key}: ${checked.reason}`));
      await this.#wrapped.recordAnswers(opened.payload.id, params.inputResponses);
      // The upstream gets its own state back, byte for byte, with the answers.
      const inner: JsonObject = { ...params, requestState: opened.payload.upstreamState as string };
      return this.#start(standIn, method, inner, exchange);
    }
    const parked = this.#parked.get(opened.payload.id);
    const answers = new Map<string, JsonObject>();
    // Each answer is checked once, here; its verdict settles its question once the handle is redeemed.
    const verdicts = new Map<string, HostVerdict>();
    let invalid: { key: string; problem: string } | undefined;
    if (parked) {
      const given = isObject(params.inputResponses) ? params.inputResponses : {};
      for (const [key, value] of Object.entries(given)) {
        const question = parked.call.question(key);
        if (!question) continue; // keys of no question in this round are ignored (the spec's SHOULD)
        const shape = inputResponseProblem(question, value);
        if (shape !== undefined) return this.#refuse(exchange, invalidParamsError(`inputResponses.${key}`, `Invalid params: inputResponses.${key}: ${shape}`));
        answers.set(key, value as JsonObject);
        const verdict = parked.standIn.session.checkResponse({ jsonrpc: '2.0', id: key, result: value as JsonObject });
        verdicts.set(key, verdict);
        if (!verdict.ok && invalid === undefined) invalid = { key, problem: verdict.reason };
      }
    }
    const redeemed = await redeemHandle(state, this.#options.keys, expected, this.#now(), this.#options.ledger);
    if (!redeemed.ok) return this.#refuse(exchange, requestStateError(redeemed.reason));
    const live = this.#parked.get(opened.payload.id);
    if (!live || live !== parked || !live.call.parked) return this.#refuse(exchange, requestStateError('gone'));
    this.#parked.delete(opened.payload.id);
    this.#pool.used(live.standIn);
    const answer = (key: string, result: JsonObject): void => {
      const verdict = verdicts.get(key);
      if (verdict) verdict.settle();
      else live.standIn.session.receive({ jsonrpc: '2.0', id: key, result });
    };
    if (invalid) {
      const error = invalidParamsError(`inputResponses.${invalid.key}`, `Invalid params: inputResponses.${invalid.key}: ${invalid.problem}`);
      live.call.refuseAnswer(exchange, invalid.key, answers.get(invalid.key) as JsonObject, error, answer);
      return undefined;
    }
    live.call.resume(exchange, answers, answer);
    return live.call;
  }

  /** Over HTTP, a tools/call's Mcp-Param-* headers must match the arguments its tool marks (-32020, HTTP 400). */
  async #checkParamHeaders(standIn: StandIn, method: string, params: JsonObject, context: ModernRequestContext, exchange: Exchange): Promise<boolean> {
    if (method !== 'tools/call' || context.headers === undefined) return true;
    const checked = checkParamHeaders(context.headers, await standIn.session.toolInputSchema(params.name), params.arguments);
    if (checked.ok) return true;
    this.#refuse(exchange, checked.error);
    return false;
  }

  #refuse(exchange: Exchange, error: JsonRpcErrorObject): undefined {
    exchange.sink.respond(errorResponse(exchange.hostId, error));
    return undefined;
  }

  #ownerFor(standIn: StandIn, params: JsonObject): CallOwner {
    return {
      settleMs: this.#options.settleMs ?? 25,
      park: (call, deadlineMs) => {
        const sealed = sealHandle(
          { kind: 'parked', upstream: call.upstream as string, principal: standIn.principal, method: call.method, params: originalParams(params), ttlMs: deadlineMs },
          this.#options.keys,
          this.#now(),
        );
        const previous = this.#handleOf.get(call);
        if (previous !== undefined) this.#parked.delete(previous);
        this.#parked.set(sealed.payload.id, { call, standIn });
        this.#handleOf.set(call, sealed.payload.id);
        return sealed.text;
      },
      cancelUpstream: (call, reason) => {
        this.#options.logger.log('info', `cancelling ${call.method} of a 2026-07-28 host: ${reason}`);
        standIn.session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: call.internalId, reason } });
      },
      ended: (call) => {
        standIn.calls.delete(call.internalId);
        const handle = this.#handleOf.get(call);
        if (handle !== undefined) this.#parked.delete(handle);
        this.#pool.used(standIn);
      },
      finish: (method, result) => this.#finish(method, result),
    };
  }

  /** The stand-in's hooks: pair 2, a modern upstream's input_required relayed with its state wrapped in a handle. */
  #hooksFor(principal: string, standIn: () => StandIn | undefined): ModernHostHooks {
    return {
      relayInputRequired: (input) => this.#wrapped.relay({ ...input, principal }),
      hostLacks: (callId, method, params) => {
        const call = typeof callId === 'string' ? standIn()?.calls.get(callId) : undefined;
        if (!call || !isInputRequestMethod(method)) return;
        const request: InputRequest = { method, params };
        call.fail(
          missingCapabilityError(requiredCapabilities(request), `The call needs ${method}, which the request did not declare in its client capabilities`),
          `the host cannot answer ${method}`,
        );
      },
    };
  }

  // ---- server/discover -------------------------------------------------------------------------------

  #discover(): JsonObject {
    const result: JsonObject = { supportedVersions: [...SUPPORTED_REVISIONS], capabilities: this.#options.serverCapabilities() };
    const instructions = this.#options.instructions();
    if (instructions !== undefined) result.instructions = instructions;
    return result;
  }

  #finish(method: string, result: JsonObject): JsonObject {
    return modernResult(method, result, this.#options.serverInfo);
  }

  #now(): number {
    return (this.#options.now ?? systemClock.now)();
  }
}
