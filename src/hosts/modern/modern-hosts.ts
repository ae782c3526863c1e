/**
 * @module Serves 2026-07-28 hosts natively: server/discover, each request run on its principal's session (a
 * RoutedSession behind a HostPort of input_required rounds), the retries that continue a parked call or carry a
 * wrapped upstream state; the sessions and the listen streams are held by principal-pool.ts and listen-streams.ts.
 */

import { describePrincipal } from '../../access/principal.js';
import { CountingIds, systemClock } from '../../core/clock.js';
import { MAX_HANDLE_TTL_MS, openHandle, sealHandle } from '../../bridge/request-state.js';
import { useUp } from '../../bridge/redeem-handle.js';
import { requestStateError } from '../../bridge/handle-errors.js';
import type { HandleKeyRing } from '../../bridge/handle-keys.js';
import type { HandleLedger } from '../../bridge/handle-ledger.js';
import { RpcCode } from '../../protocol/errors.js';
import { mayRequireInput } from '../../protocol/input-required.js';
import { inputResponseProblem, originalParams, readRetryParams } from '../../protocol/input-retry.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { errorResponse, isObject, resultResponse } from '../../protocol/jsonrpc.js';
import { invalidParamsError } from '../../protocol/modern-errors.js';
import { checkParamHeaders } from '../../protocol/param-headers.js';
import { stripRequestEnvelope } from '../../protocol/request-envelope.js';
import { MODERN_REVISION, SUPPORTED_REVISIONS } from '../../protocol/revisions.js';
import type { ModernExchange, ModernRequestContext, ModernSink } from '../../ports/host-contracts.js';
import type { HostPort } from '../../ports/host-port.js';
import { toProtocolError } from '../../protocol/gateway-errors.js';
import type { RoutedSession } from '../../router/routed-session.js';
import { traceHostRequest } from '../../router/request-span.js';
import type { Logger } from '../../core/log.js';
import type { CallOwner, Exchange } from './modern-call.js';
import { ModernCall } from './modern-call.js';
import { modernResult } from './modern-result.js';
import type { PrincipalSession } from './principal-session.js';
import { internalRequestId } from './principal-session.js';
import { PrincipalPool, tooManySessions } from './principal-pool.js';
import { ListenStreams } from './listen-streams.js';
import { WrappedRounds } from './wrapped-rounds.js';
import type { QuestionPolicy } from '../../questions/route-policy.js';
import type { QuestionDesk } from '../../questions/desk.js';
import type { HostVerdict } from '../../questions/host-answers.js';
import type { SessionLimits } from '../../ports/session-limits.js';

export interface ModernHostsOptions {
  /** Opens the routed session of a principal, reached through `port` (the gateway counts and registers it); `onClosed` runs once it closed. */
  openSession(port: HostPort, transport: ModernRequestContext['transport'], onClosed: () => void): RoutedSession;
  keys: HandleKeyRing;
  ledger: HandleLedger;
  /** This gateway instance's id, named in each parked handle, when several instances share a store (design 013). */
  owner?: string;
  /** The desk every question is opened at, and the route policy. */
  questions: { desk: QuestionDesk; policy: QuestionPolicy };
  serverInfo: JsonObject;
  serverCapabilities(): JsonObject;
  instructions(): string | undefined;
  /** Settles once every upstream's first probe ended (each bounded by its connect timeout): server/discover waits for it. */
  upstreamsProbed(): Promise<void>;
  /** How long a round waits for the host's retry (the question timeout of that upstream and tool). */
  roundDeadlineMs(upstream: string, tool: string | undefined): number;
  /** A principal's session with no call and no listen stream for this long is closed (with its upstream sessions); 0 = never. */
  idleTimeoutMs: number;
  /** A retry carried another principal's handle (for the metrics). */
  onForeignHandle?: () => void;
  logger: Logger;
  /** How long a round waits after a legacy upstream's question for more of its burst (default 0: until the end of the next I/O turn); other rounds are offered at the end of the event loop's turn. */
  settleMs?: number;
  /** The count every principal's session is admitted by (caps on stand-ins, on each principal and on all host sessions). */
  limits: SessionLimits;
  now?: () => number;
}

/** Methods of the sessionful revisions that 2026-07-28 removed. */
const REMOVED = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

const NOTHING: ModernExchange = { cancel: () => undefined };

export class ModernHosts {
  #options: ModernHostsOptions;
  /** Parked calls by the id of the handle that continues them (only the latest round's). */
  #parked = new Map<string, { call: ModernCall; session: PrincipalSession }>();
  /** Rounds of 2026-07-28 upstreams relayed with their state wrapped. */
  #wrapped: WrappedRounds;
  #handleOf = new WeakMap<ModernCall, string>();
  #pool: PrincipalPool;
  #streams: ListenStreams;
  #closed = false;
  /** Numbers the calls (`m-N`). */
  #ids = new CountingIds();

  constructor(options: ModernHostsOptions) {
    this.#options = options;
    this.#wrapped = new WrappedRounds({ questions: options.questions, keys: options.keys, logger: options.logger, now: () => this.#now() });
    this.#pool = new PrincipalPool({
      openSession: (port, transport, onClosed) => options.openSession(port, transport, onClosed),
      takeRound: (principal, round) => this.#wrapped.relay({ ...round, principal }),
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
      session: (context) => this.#pool.get(context) ?? tooManySessions(),
      used: (session) => this.#pool.used(session),
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
    const session = this.#pool.get(context);
    if (!session) return fail(tooManySessions());
    const state = retry.retry.requestState;
    let call: ModernCall | undefined;
    let cancelled: string | undefined;
    const started = this.#checkParamHeaders(session, request.method, params, context, exchange).then((ok) => {
      if (!ok) return undefined;
      return state === undefined ? this.#start(session, request.method, params, exchange) : this.#continue(session, request.method, params, state, exchange, context);
    });
    void started
      .then((c) => {
        call = c;
        if (cancelled !== undefined) c?.cancel(exchange, cancelled);
      })
      .catch((error: unknown) => sink.respond(errorResponse(request.id, this.#failure(request.method, error))));
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

  /** A first request: run on the principal's session under an id of its own; its result (or its rounds) go to the host. */
  #start(session: PrincipalSession, method: string, params: JsonObject, exchange: Exchange): ModernCall {
    const internalId = internalRequestId(this.#ids);
    const call = new ModernCall({ internalId, method, asks: mayRequireInput(method), exchange, owner: this.#ownerFor(session, params) });
    session.calls.set(internalId, call);
    this.#pool.used(session);
    // The call always asks for progress under its own id: whichever request of the host (the first, or a retry)
    // is attached gets it under its own token, or not at all.
    const meta = isObject(params._meta) ? params._meta : {};
    // One trace per host request: its span (continuing the host's `_meta.traceparent`) ends with the call.
    const request = { jsonrpc: '2.0' as const, id: exchange.hostId, method, params };
    traceHostRequest(request, session.id, MODERN_REVISION, () => session.run(method, { ...params, _meta: { ...meta, progressToken: internalId } }, internalId)).then(
      (result) => call.finish({ result }),
      (error: unknown) => call.finish({ error: this.#failure(method, error) }),
    );
    return call;
  }

  /** A retry carried another principal's handle: audited (a warn line) and counted, then refused like any bad handle. */
  #foreignHandle(context: ModernRequestContext, method: string): void {
    this.#options.logger.log('warn', 'a request carried another principal\'s requestState', {
      audit: 'foreign-handle',
      principal: context.identity ? describePrincipal(context.identity) : context.principal,
      method,
    });
    this.#options.onForeignHandle?.();
  }

  /**
   * A retry with a requestState, its handle opened once. A wrapped handle gives the upstream its own state back;
   * a parked one continues the parked call with the answers, once each is checked like any host's answer and the
   * handle is used up. A refused handle touches nothing. An answer that breaks its schema settles its question as
   * any host's does: the handle is used up, the upstream gets -32602, the retry too, and the call ends.
   */
  async #continue(session: PrincipalSession, method: string, params: JsonObject, state: string, exchange: Exchange, context: ModernRequestContext): Promise<ModernCall | undefined> {
    const original = originalParams(params);
    // The upstream a handle names is not routed again for a parked call (the call is on it); a wrapped one's is.
    const opened = openHandle(state, this.#options.keys, { principal: context.principal, upstream: undefined, method, params: original }, this.#now());
    if (!opened.ok) {
      if (opened.reason === 'wrong-principal') this.#foreignHandle(context, method);
      return this.#refuse(exchange, requestStateError(opened.reason));
    }
    if (opened.payload.kind === 'wrapped') {
      const { upstream } = await session.routed.upstreamOf(method, original);
      if (upstream !== opened.payload.upstream) return this.#refuse(exchange, requestStateError('wrong-upstream'));
      const checked = this.#wrapped.check(opened.payload.id, params.inputResponses);
      if (!checked.ok) return this.#refuse(exchange, invalidParamsError(`inputResponses.${checked.key}`, `Invalid params: inputResponses.${checked.key}: ${checked.reason}`));
      await this.#wrapped.recordAnswers(opened.payload.id, params.inputResponses);
      // The upstream gets its own state back, byte for byte, with the answers.
      const inner: JsonObject = { ...params, requestState: opened.payload.upstreamState as string };
      return this.#start(session, method, inner, exchange);
    }
    const parked = this.#parked.get(opened.payload.id);
    const answers = new Map<string, JsonObject>();
    // Each answer is checked once, here; its verdict settles its question once the handle is used up.
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
        const verdict = parked.session.routed.checkResponse({ jsonrpc: '2.0', id: key, result: value as JsonObject });
        verdicts.set(key, verdict);
        if (!verdict.ok && invalid === undefined) invalid = { key, problem: verdict.reason };
      }
    }
    const redeemed = await useUp(opened, this.#now(), this.#options.ledger);
    if (!redeemed.ok) return this.#refuse(exchange, requestStateError(redeemed.reason));
    const live = this.#parked.get(opened.payload.id);
    if (!live || live !== parked || !live.call.parked) return this.#refuse(exchange, requestStateError('gone'));
    this.#parked.delete(opened.payload.id);
    this.#pool.used(live.session);
    const answer = (key: string): void => verdicts.get(key)?.settle();
    if (invalid) {
      const error = invalidParamsError(`inputResponses.${invalid.key}`, `Invalid params: inputResponses.${invalid.key}: ${invalid.problem}`);
      live.call.refuseAnswer(exchange, invalid.key, answers.get(invalid.key) as JsonObject, error, answer);
      return undefined;
    }
    live.call.resume(exchange, answers, answer);
    return live.call;
  }

  /** Over HTTP, a tools/call's Mcp-Param-* headers must match the arguments its tool marks (-32020, HTTP 400). */
  async #checkParamHeaders(session: PrincipalSession, method: string, params: JsonObject, context: ModernRequestContext, exchange: Exchange): Promise<boolean> {
    if (method !== 'tools/call' || context.headers === undefined) return true;
    const checked = checkParamHeaders(context.headers, await session.routed.toolInputSchema(params.name), params.arguments);
    if (checked.ok) return true;
    this.#refuse(exchange, checked.error);
    return false;
  }

  #refuse(exchange: Exchange, error: JsonRpcErrorObject): undefined {
    exchange.sink.respond(errorResponse(exchange.hostId, error));
    return undefined;
  }

  /** A request that failed as a whole, on the wire (an internal failure is logged). */
  #failure(method: string, error: unknown): JsonRpcErrorObject {
    const protocolError = toProtocolError(error);
    if (protocolError.code === RpcCode.InternalError) this.#options.logger.log('error', `modern ${method} failed`, { error: String(error) });
    return protocolError.toJson();
  }

  #ownerFor(session: PrincipalSession, params: JsonObject): CallOwner {
    return {
      settleMs: this.#options.settleMs ?? 0,
      park: (call) => {
        // The upstream (and tool) the call went to, as the router holds it: the handle names it, the deadline is its.
        const routed = session.routed.callOf(call.internalId);
        const upstream = routed?.kind === 'composite' ? 'composite' : (routed?.upstream?.spec.name ?? 'unknown');
        const tool = routed?.kind === 'composite' ? (typeof params.name === 'string' ? params.name : undefined) : routed?.tool?.upstream;
        const deadlineMs = Math.min(MAX_HANDLE_TTL_MS, this.#options.roundDeadlineMs(upstream, tool));
        const sealed = sealHandle(
          { kind: 'parked', upstream, principal: session.principal, method: call.method, params: originalParams(params), ttlMs: deadlineMs, ...(this.#options.owner === undefined ? {} : { owner: this.#options.owner }) },
          this.#options.keys,
          this.#now(),
        );
        const previous = this.#handleOf.get(call);
        if (previous !== undefined) this.#parked.delete(previous);
        this.#parked.set(sealed.payload.id, { call, session });
        this.#handleOf.set(call, sealed.payload.id);
        this.#options.ledger.parked?.(sealed.payload);
        return { handle: sealed.text, deadlineMs };
      },
      cancelUpstream: (call, reason) => {
        this.#options.logger.log('info', `cancelling ${call.method} of a 2026-07-28 host: ${reason}`);
        session.routed.cancelCall(call.internalId, reason);
      },
      ended: (call) => {
        session.calls.delete(call.internalId);
        const handle = this.#handleOf.get(call);
        // Still parked: the call ended without its handle being used (deadline, cancel, its upstream gone).
        if (handle !== undefined && this.#parked.delete(handle)) this.#options.ledger.ended?.(handle);
        this.#pool.used(session);
      },
      finish: (method, result) => this.#finish(method, result),
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
