/**
 * @module One MCP client session with one upstream over a Transport: the initialize handshake (legacy) or
 * `server/discover` (2026-07-28), request ids of our own, routing what the upstream sends, progress,
 * cancellation and closing; it wires the pending-call table, the local answers and the result checks together.
 */

import { ProtocolError, RpcCode } from '../protocol/errors.js';
import type {
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
} from '../protocol/jsonrpc.js';
import { errorResponse, isErrorResponse, isObject, notification, resultResponse } from '../protocol/jsonrpc.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import type { Era } from '../protocol/revisions.js';
import { MODERN_REVISION } from '../protocol/revisions.js';
import type { UpstreamSpec } from '../config/types.js';
import type { IdSource } from '../core/clock.js';
import { CountingIds } from '../core/clock.js';
import type { MessageInfo, Transport } from './transport/transport.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { Logger } from '../core/log.js';
import type { LocalAnswer } from './local-answers.js';
import { LocalAnswers } from './local-answers.js';
import { openListenStream } from './listen.js';
import type { PendingCall } from './pending.js';
import { PendingCalls } from './pending.js';
import { outgoingParams } from './request-params.js';
import { endUpstreamRequest, traceUpstreamRequest } from './upstream-span.js';
import { modernResultProblem } from './result-check.js';
import { sendFailure } from './send-failure.js';
import { withinConnectTimeout } from './start.js';

export interface CallOptions {
  timeoutMs?: number;
  /** Receives the upstream's progress notifications for this call (token already stripped). */
  onProgress?: (params: JsonObject) => void;
  /** Set when the host asked for progress: the upstream then gets a token of ours. */
  wantsProgress?: boolean;
  /** Learns the upstream-side id synchronously (to cancel the call later). */
  onId?: (id: number) => void;
  /** 2026-07-28: the envelope this request carries (the calling host's); else the session's own. */
  envelope?: RequestEnvelope;
  /** 2026-07-28 over HTTP: extra headers of this request (`Mcp-Param-*` mirrored from a tool's arguments). */
  headers?: Record<string, string>;
  /**
   * Sees the upstream's error response synchronously, before anything the upstream sent after it is
   * handled (the promise rejects a microtask later): what it tells must be known by then.
   */
  onErrorResponse?: (error: JsonRpcErrorObject) => void;
  /** Sees the upstream's result synchronously, like onErrorResponse (a task it created is known before its status notifications). */
  onResult?: (result: JsonObject) => void;
}

/**
 * How a request we sent ended: answered with a result; answered with an error, or the connection failed or
 * ended under it; not answered within its timeout; or cancelled by us (for the host, or by closing the session).
 */
export type UpstreamRequestOutcome = 'ok' | 'error' | 'timeout' | 'cancelled';

export interface UpstreamHandlers {
  /**
   * A request from the upstream (elicitation, sampling, roots, ping…). Answer with respond()/respondError().
   * `relatedCallId` is the call whose response stream carried it, when the transport can tell.
   */
  onRequest(session: UpstreamSession, request: JsonRpcRequest, relatedCallId: number | undefined): void;
  onNotification(session: UpstreamSession, message: JsonRpcNotification, relatedCallId: number | undefined): void;
  /** The connection ended (crash, close, transport error); pending calls were already rejected. */
  onClose(session: UpstreamSession, reason: string): void;
  /**
   * Optional instrumentation: every request sent to the upstream (initialize included) once it has ended,
   * with its wall-clock duration from send to end (time a host spent answering its questions included).
   * Called synchronously, before the caller's promise settles; whatever it throws is logged and ignored.
   */
  onRequestDone?(session: UpstreamSession, method: string, seconds: number, outcome: UpstreamRequestOutcome): void;
}

export interface InitializeParams {
  protocolVersion: string;
  capabilities: JsonObject;
  clientInfo: JsonObject;
}

/** What a 2026-07-28 upstream said of itself in `server/discover`. */
export interface DiscoverInfo {
  capabilities: JsonObject;
  serverInfo: JsonObject | undefined;
  instructions: string | undefined;
}

export interface UpstreamSessionOptions {
  /** The envelope of a request to a 2026-07-28 upstream that names none of its own (lists, completions…). */
  envelope?: () => RequestEnvelope;
  /** Numbers the session's key (`name#N`); without one, the session counts alone. */
  ids?: IdSource;
}

export class UpstreamSession {
  readonly spec: UpstreamSpec;
  /** Unique among the sessions numbered by one IdSource (a gateway's), for logs and maps. */
  readonly key: string;
  protocolVersion: string | undefined;
  serverCapabilities: JsonObject = {};
  serverInfo: JsonObject | undefined;
  instructions: string | undefined;
  /** Cached list results (all pages), dropped on list_changed (legacy) or when their `ttlMs` runs out (modern). */
  readonly listCache = new Map<string, Promise<JsonObject[]>>();
  /**
   * `legacy`: initialized, a session of its own (2024-11-05 … 2025-11-25). `modern`: 2026-07-28, no
   * session: every request carries the envelope, results carry `resultType`, nothing is asked back.
   */
  era: Era = 'legacy';
  /** A legacy upstream may send several questions of one call at once (its requests are independent); a 2026-07-28 one asks in rounds. */
  get asksInBursts(): boolean {
    return this.era === 'legacy';
  }

  #transport: Transport;
  #handlers: UpstreamHandlers;
  #logger: Logger;
  #nextId = 1;
  readonly #pending = new PendingCalls((call) => this.#timedOut(call));
  #closed = false;
  #closeReason = '';
  #started = false;
  #envelope: (() => RequestEnvelope) | undefined;
  /** Questions the gateway made from this upstream's embedded input requests: their answers come back here, not over the wire. */
  readonly #localAnswers = new LocalAnswers();

  constructor(spec: UpstreamSpec, transport: Transport, handlers: UpstreamHandlers, logger: Logger, options: UpstreamSessionOptions = {}) {
    this.spec = spec;
    this.#envelope = options.envelope;
    this.key = `${spec.name}#${(options.ids ?? new CountingIds()).next('upstream-session')}`;
    this.#transport = transport;
    this.#handlers = handlers;
    this.#logger = logger;
    transport.onmessage = this.#onMessage;
    transport.onerror = (error) => this.#logger.log('debug', `upstream ${this.key}: transport error`, { error: error.message });
    transport.onclose = () => this.#shutdown(`upstream '${spec.name}' closed the connection`);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Starts the transport (once). */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    const timeout = this.spec.connectTimeoutMs;
    await withinConnectTimeout(this.#transport.start(), timeout, `upstream '${this.spec.name}' did not start within ${timeout} ms`);
  }

  /** Starts the transport and performs initialize + notifications/initialized. */
  async connect(params: InitializeParams): Promise<void> {
    const timeout = this.spec.connectTimeoutMs;
    await this.start();
    const result = await this.request('initialize', params as unknown as JsonObject, { timeoutMs: timeout });
    this.protocolVersion = typeof result.protocolVersion === 'string' ? result.protocolVersion : undefined;
    this.serverCapabilities = isObject(result.capabilities) ? result.capabilities : {};
    this.serverInfo = isObject(result.serverInfo) ? result.serverInfo : undefined;
    this.instructions = typeof result.instructions === 'string' ? result.instructions : undefined;
    if (this.protocolVersion) this.#transport.setProtocolVersion?.(this.protocolVersion);
    await this.notify('notifications/initialized');
  }

  /** Starts the transport and asks `server/discover` as a 2026-07-28 request; resolves with the raw result (the caller judges it). */
  async discover(envelope: RequestEnvelope): Promise<JsonObject> {
    await this.start();
    return this.request('server/discover', undefined, { timeoutMs: this.spec.connectTimeoutMs, envelope });
  }

  /** On a 2026-07-28 session, opens the `subscriptions/listen` stream that carries the upstream's list changes (see openListenStream). */
  listenForChanges(): void {
    openListenStream(this, this.#logger);
  }

  /** From now on this session speaks 2026-07-28: what `server/discover` said becomes what the upstream offers. */
  adoptModern(info: DiscoverInfo): void {
    this.era = 'modern';
    this.protocolVersion = MODERN_REVISION;
    this.serverCapabilities = info.capabilities;
    this.serverInfo = info.serverInfo;
    this.instructions = info.instructions;
  }

  /**
   * The answer to `id`, a question the gateway made from an embedded input request of this upstream, goes
   * to `handler` instead of the wire: respond() and respondError() for it call the handler once.
   */
  answerLocally(id: string, handler: (answer: LocalAnswer) => void): void {
    this.#localAnswers.expect(id, handler);
  }

  /** A fresh id for such a question (`sb-in-N`, counted per upstream session: its answers come back to this session only). */
  newLocalQuestionId(): string {
    return this.#localAnswers.newId();
  }

  /** Whether `id` names such a question that is still unanswered. */
  isLocalQuestion(id: JsonRpcId): boolean {
    return this.#localAnswers.has(id);
  }

  /** Sends a request and resolves with its result; rejects with a ProtocolError or GatewayError. */
  request(method: string, params: JsonObject | undefined, options: CallOptions = {}): Promise<JsonObject> {
    if (this.#closed) {
      return Promise.reject(new GatewayError('GW_ERR_UPSTREAM_CLOSED', this.#closeReason || `upstream '${this.spec.name}' is closed`));
    }
    const id = this.#nextId++;
    options.onId?.(id);
    const envelope = options.envelope ?? (this.era === 'modern' ? this.#envelope?.() : undefined);
    const traced = traceUpstreamRequest(this, method, outgoingParams(params, envelope, options.wantsProgress ? id : undefined), id, options.headers);
    const outParams = traced.params;
    const answered = new Promise<JsonObject>((resolve, reject) => {
      this.#pending.add({
        id,
        method,
        sentAt: performance.now(),
        timeoutMs: options.timeoutMs ?? this.spec.requestTimeoutMs,
        resolve,
        reject,
        onProgress: options.onProgress,
        onErrorResponse: options.onErrorResponse,
        onResult: options.onResult,
      });
      const message: JsonRpcRequest = outParams === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: outParams };
      this.#transport.send(message, traced.headers ? { headers: traced.headers } : undefined).catch((error: unknown) => {
        const call = this.#pending.take(id);
        if (!call) return;
        this.#done(call, 'error');
        reject(sendFailure(error, this.spec.name));
      });
    });
    if (traced.span.recording) answered.then(() => endUpstreamRequest(this, id, traced.span), (error: unknown) => endUpstreamRequest(this, id, traced.span, error));
    return answered;
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    if (this.#closed) return;
    await this.#transport.send(notification(method, params));
  }

  /** Cancels a call we forwarded: tells the upstream and rejects the local promise. */
  cancel(id: number, reason: string): void {
    const call = this.#pending.take(id);
    if (!call) return;
    this.#done(call, 'cancelled');
    call.reject(new GatewayError('GW_ERR_REQUEST_CANCELLED', reason));
    this.#cancelUpstream(id, reason);
  }

  /** Answers a question of the upstream's (a 2026-07-28 upstream asked none over the wire: its answers stay local). */
  respond(id: JsonRpcId, result: JsonObject): void {
    if (this.#answerLocal(id, { result })) return;
    this.#sendQuietly(resultResponse(id, result));
  }

  respondError(id: JsonRpcId, error: ProtocolError): void {
    if (this.#answerLocal(id, { error: error.toJson() })) return;
    this.#sendQuietly(errorResponse(id, error.toJson()));
  }

  /** Stops expecting the answer to a local question (its round was given up); a late answer is then dropped. */
  forgetLocal(id: JsonRpcId): void {
    this.#localAnswers.forget(id);
  }

  /** Whether the answer went to a local handler (or nowhere: a modern upstream is never answered over the wire). */
  #answerLocal(id: JsonRpcId, answer: LocalAnswer): boolean {
    return this.#localAnswers.deliver(id, answer) || this.era === 'modern';
  }

  /**
   * Tells the upstream we gave up on a request: a 2026-07-28 request over HTTP is cancelled by closing its
   * stream; otherwise (legacy, stdio) with notifications/cancelled.
   */
  #cancelUpstream(id: number, reason: string): void {
    if (this.era === 'modern' && this.#transport.abortRequest?.(id)) return;
    void this.notify('notifications/cancelled', { requestId: id, reason }).catch(() => undefined);
  }

  /** Stops the timeout clock of a call while a host (or a person) is answering one of its questions. */
  pause(id: number): void {
    this.#pending.pause(id);
  }

  resume(id: number): void {
    this.#pending.resume(id);
  }

  /** Ends the session; its calls still pending fail with GW_ERR_UPSTREAM_CLOSED and `reason` (default: the session closed). */
  async close(reason?: string): Promise<void> {
    if (this.#closed) return;
    this.#shutdown(reason ?? `upstream '${this.spec.name}' session closed`, 'cancelled');
    await this.#transport.close().catch(() => undefined);
  }

  /** A call's timeout ran out (the table already let it go): it fails, and the upstream is told unless it was the handshake. */
  #timedOut(call: PendingCall): void {
    const message = `upstream '${this.spec.name}' did not answer ${call.method} within ${call.timeoutMs} ms`;
    this.#done(call, 'timeout');
    call.reject(new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', message));
    if (call.method !== 'initialize') this.#cancelUpstream(call.id, 'timeout');
  }

  /** Tells the instrumentation hook, if any, that a request ended; a failing hook never disturbs the session. */
  #done(call: PendingCall, outcome: UpstreamRequestOutcome): void {
    if (!this.#handlers.onRequestDone) return;
    const seconds = Math.max(0, performance.now() - call.sentAt) / 1000;
    try {
      this.#handlers.onRequestDone(this, call.method, seconds, outcome);
    } catch (error) {
      this.#logger.log('warn', `upstream ${this.key}: the request hook failed`, { error: error instanceof Error ? error.message : String(error) });
    }
  }

  #sendQuietly(message: JsonRpcMessage): void {
    if (this.#closed) return;
    this.#transport.send(message).catch((error: unknown) => {
      this.#logger.log('warn', `upstream ${this.key}: could not deliver a response`, { error: String(error) });
    });
  }

  /** What the transport delivers (a function of its own, handed to the transport as is). */
  readonly #onMessage = (message: JsonRpcMessage, info: MessageInfo | undefined): void => {
    if ('method' in message) {
      const related = typeof info?.relatedRequestId === 'number' && this.#pending.has(info.relatedRequestId) ? info.relatedRequestId : undefined;
      if ('id' in message) {
        if (this.era === 'modern') {
          // 2026-07-28 has no server-to-client requests: whatever this is, it is refused, never relayed.
          this.#sendQuietly(errorResponse(message.id, { code: RpcCode.MethodNotFound, message: `Method not found: ${message.method} (a ${MODERN_REVISION} server sends no requests)` }));
          return;
        }
        this.#handlers.onRequest(this, message, related);
        return;
      }
      if (message.method === 'notifications/progress') {
        this.#routeProgress(message);
        return;
      }
      this.#handlers.onNotification(this, message, related);
      return;
    }
    if (typeof message.id !== 'number') {
      this.#logger.log('debug', `upstream ${this.key}: response with an id we never sent`, { id: message.id });
      return;
    }
    const call = this.#pending.take(message.id);
    if (!call) return; // late answer to a cancelled or timed-out call
    if (isErrorResponse(message)) {
      this.#done(call, 'error');
      call.onErrorResponse?.(message.error);
      call.reject(ProtocolError.from(message.error));
    } else {
      // Legacy results are not judged here.
      const problem = this.era === 'modern' ? modernResultProblem(call.method, message.result) : undefined;
      this.#done(call, problem === undefined ? 'ok' : 'error');
      if (problem !== undefined) {
        call.reject(new GatewayError('GW_ERR_UPSTREAM_INVALID_RESULT', `upstream '${this.spec.name}' sent an invalid ${call.method} result: ${problem}`));
        return;
      }
      call.onResult?.(message.result);
      call.resolve(message.result);
    }
  };

  /**
   * Progress goes to the call its token names (a token is our id of a call that asked for progress), and only
   * while that call is pending: progress of a call that ended (answered, cancelled, timed out) or that never
   * asked for any is dropped, never relayed: its host may have reused the token for another call.
   */
  #routeProgress(message: JsonRpcNotification): void {
    const token = message.params?.progressToken;
    const call = typeof token === 'number' ? this.#pending.get(token) : undefined;
    if (!call?.onProgress) {
      this.#logger.log('debug', `upstream ${this.key}: dropping progress for no call in flight`, { progressToken: token });
      return;
    }
    this.#pending.restartTimer(call.id); // progress resets the request timeout
    const { progressToken: _omit, ...rest } = message.params ?? {};
    call.onProgress(rest);
  }

  /** `outcome` is what the calls still pending count as: cancelled when we close, error when the connection ends under us. */
  #shutdown(reason: string, outcome: UpstreamRequestOutcome = 'error'): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closeReason = reason;
    for (const call of this.#pending.takeAll()) {
      this.#done(call, outcome);
      call.reject(new GatewayError('GW_ERR_UPSTREAM_CLOSED', reason));
    }
    this.#localAnswers.failAll(() => new GatewayError('GW_ERR_UPSTREAM_CLOSED', reason).toProtocolError().toJson());
    this.#handlers.onClose(this, reason);
  }
}
