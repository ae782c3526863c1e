/**
 * @module One MCP client session with one upstream over a Transport: the initialize handshake (legacy) or
 * the per-request envelope (2026-07-28), request ids of our own, per-call timeouts that pause while a host
 * is answering, progress and cancellation.
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
import { mayRequireInput } from '../protocol/input-required.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import { withRequestEnvelope } from '../protocol/request-envelope.js';
import { readResultType } from '../protocol/result-type.js';
import type { Era } from '../protocol/revisions.js';
import { MODERN_REVISION } from '../protocol/revisions.js';
import type { UpstreamSpec } from '../config/types.js';
import type { IdSource } from '../core/clock.js';
import { CountingIds } from '../core/clock.js';
import type { MessageInfo, Transport } from '../transport/transport.js';
import { TransportError } from '../transport/transport.js';
import { findUpstreamAuthError } from '../transport/upstream-auth-error.js';
import { GatewayError } from './errors.js';
import type { Logger } from './logger.js';

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

/** A request we sent that is still waiting for its answer. */
interface PendingEntry {
  readonly id: number;
  readonly method: string;
  /** performance.now() when it was sent: the monotonic start of its duration. */
  sentAt: number;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
  onProgress: ((params: JsonObject) => void) | undefined;
  onErrorResponse: ((error: JsonRpcErrorObject) => void) | undefined;
  onResult: ((result: JsonObject) => void) | undefined;
  timeoutMs: number;
  timer: NodeJS.Timeout | undefined;
  pauses: number;
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

/** How the gateway answered a question it made from an embedded input request: a result, or an error. */
export type LocalAnswer = { result: JsonObject } | { error: JsonRpcErrorObject };

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

  #transport: Transport;
  #handlers: UpstreamHandlers;
  #logger: Logger;
  #nextId = 1;
  #pending = new Map<number, PendingEntry>();
  #closed = false;
  #closeReason = '';
  #started = false;
  #envelope: (() => RequestEnvelope) | undefined;
  /** Questions the gateway made from this upstream's embedded input requests: their answers come back here, not over the wire. */
  #localAnswers = new Map<JsonRpcId, (answer: LocalAnswer) => void>();
  #localCount = 0;

  constructor(spec: UpstreamSpec, transport: Transport, handlers: UpstreamHandlers, logger: Logger, options: UpstreamSessionOptions = {}) {
    this.spec = spec;
    this.#envelope = options.envelope;
    this.key = `${spec.name}#${(options.ids ?? new CountingIds()).next('upstream-session')}`;
    this.#transport = transport;
    this.#handlers = handlers;
    this.#logger = logger;
    transport.onmessage = (message, info) => this.#onMessage(message, info);
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
    await withTimeout(this.#transport.start(), timeout, `upstream '${this.spec.name}' did not start within ${timeout} ms`);
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

  /**
   * 2026-07-28 has no unsolicited notifications: an upstream's list changes travel on a `subscriptions/listen`
   * stream. This opens one for the lists the upstream says change (`listChanged`); what it carries reaches the
   * handlers like a legacy upstream's notifications. It lasts as long as the session (no timeout); if the
   * upstream ends it, it is not reopened (the lists' `ttlMs` still bounds how stale they get).
   */
  listenForChanges(): void {
    if (this.era !== 'modern' || this.#closed) return;
    const caps = this.serverCapabilities;
    const changes = (key: string): boolean => isObject(caps[key]) && caps[key].listChanged === true;
    const notifications: JsonObject = {};
    if (changes('tools')) notifications.toolsListChanged = true;
    if (changes('prompts')) notifications.promptsListChanged = true;
    if (changes('resources')) notifications.resourcesListChanged = true;
    if (Object.keys(notifications).length === 0) return;
    this.request('subscriptions/listen', { notifications }, { timeoutMs: 0 }).then(
      () => this.#logger.log('debug', `upstream ${this.key}: the upstream ended its listen stream`),
      (error: unknown) => {
        if (!this.#closed) this.#logger.log('info', `upstream ${this.key}: no listen stream for list changes`, { error: String(error) });
      },
    );
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
    this.#localAnswers.set(id, handler);
  }

  /** A fresh id for such a question (`sb-in-N`, counted per upstream session: its answers come back to this session only). */
  newLocalQuestionId(): string {
    this.#localCount += 1;
    return `sb-in-${this.#localCount}`;
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
    let outParams = params;
    const envelope = options.envelope ?? (this.era === 'modern' ? this.#envelope?.() : undefined);
    if (envelope) outParams = withRequestEnvelope(params, envelope);
    if (options.wantsProgress) {
      const meta = isObject(outParams?._meta) ? outParams._meta : {};
      outParams = { ...outParams, _meta: { ...meta, progressToken: id } };
    }
    return new Promise<JsonObject>((resolve, reject) => {
      const entry: PendingEntry = {
        id,
        method,
        sentAt: performance.now(),
        resolve,
        reject,
        onProgress: options.onProgress,
        onErrorResponse: options.onErrorResponse,
        onResult: options.onResult,
        timeoutMs: options.timeoutMs ?? this.spec.requestTimeoutMs,
        timer: undefined,
        pauses: 0,
      };
      this.#pending.set(id, entry);
      this.#arm(entry);
      const message: JsonRpcRequest = outParams === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: outParams };
      this.#transport.send(message, options.headers ? { headers: options.headers } : undefined).catch((error: unknown) => {
        if (!this.#pending.delete(id)) return;
        clearTimeout(entry.timer);
        this.#done(entry, 'error');
        reject(this.#sendFailure(error));
      });
    });
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    if (this.#closed) return;
    await this.#transport.send(notification(method, params));
  }

  /** Cancels a call we forwarded: tells the upstream and rejects the local promise. */
  cancel(id: number, reason: string): void {
    const entry = this.#pending.get(id);
    if (!entry) return;
    this.#pending.delete(id);
    clearTimeout(entry.timer);
    this.#done(entry, 'cancelled');
    entry.reject(new GatewayError('GW_ERR_REQUEST_CANCELLED', reason));
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
    this.#localAnswers.delete(id);
  }

  /** Whether the answer went to a local handler (or nowhere: a modern upstream is never answered over the wire). */
  #answerLocal(id: JsonRpcId, answer: LocalAnswer): boolean {
    const handler = this.#localAnswers.get(id);
    if (handler) {
      this.#localAnswers.delete(id);
      handler(answer);
      return true;
    }
    return this.era === 'modern';
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
    const entry = this.#pending.get(id);
    if (!entry) return;
    entry.pauses += 1;
    clearTimeout(entry.timer);
    entry.timer = undefined;
  }

  resume(id: number): void {
    const entry = this.#pending.get(id);
    if (!entry || entry.pauses === 0) return;
    entry.pauses -= 1;
    if (entry.pauses === 0) this.#arm(entry);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#shutdown(`upstream '${this.spec.name}' session closed`, 'cancelled');
    await this.#transport.close().catch(() => undefined);
  }

  #arm(entry: PendingEntry): void {
    clearTimeout(entry.timer);
    if (entry.pauses > 0 || entry.timeoutMs <= 0) return;
    entry.timer = setTimeout(() => {
      if (!this.#pending.delete(entry.id)) return;
      const message = `upstream '${this.spec.name}' did not answer ${entry.method} within ${entry.timeoutMs} ms`;
      this.#done(entry, 'timeout');
      entry.reject(new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', message));
      if (entry.method !== 'initialize') this.#cancelUpstream(entry.id, 'timeout');
    }, entry.timeoutMs);
    entry.timer.unref?.();
  }

  /** Tells the instrumentation hook, if any, that a request ended; a failing hook never disturbs the session. */
  #done(entry: PendingEntry, outcome: UpstreamRequestOutcome): void {
    if (!this.#handlers.onRequestDone) return;
    const seconds = Math.max(0, performance.now() - entry.sentAt) / 1000;
    try {
      this.#handlers.onRequestDone(this, entry.method, seconds, outcome);
    } catch (error) {
      this.#logger.log('warn', `upstream ${this.key}: the request hook failed`, { error: error instanceof Error ? error.message : String(error) });
    }
  }

  #sendFailure(error: unknown): Error {
    if (error instanceof TransportError && error.sessionExpired) return error;
    // JSON.stringify overflowed the stack on the message: its params are at fault, not the upstream.
    if (error instanceof RangeError || (error instanceof Error && error.cause instanceof RangeError)) {
      return new GatewayError('GW_ERR_INVALID_PARAMS', `Invalid params: the request to upstream '${this.spec.name}' cannot be encoded as JSON`, { cause: error });
    }
    const auth = findUpstreamAuthError(error);
    if (auth) {
      const code = auth.problem === 'failed' ? 'GW_ERR_UPSTREAM_AUTH_FAILED' : 'GW_ERR_UPSTREAM_AUTH_REQUIRED';
      return new GatewayError(code, auth.message, { cause: error });
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${this.spec.name}' is unavailable: ${detail}`, { cause: error });
  }

  #sendQuietly(message: JsonRpcMessage): void {
    if (this.#closed) return;
    this.#transport.send(message).catch((error: unknown) => {
      this.#logger.log('warn', `upstream ${this.key}: could not deliver a response`, { error: String(error) });
    });
  }

  #onMessage(message: JsonRpcMessage, info: MessageInfo | undefined): void {
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
    const entry = this.#pending.get(message.id);
    if (!entry) return; // late answer to a cancelled or timed-out call
    this.#pending.delete(message.id);
    clearTimeout(entry.timer);
    if (isErrorResponse(message)) {
      this.#done(entry, 'error');
      entry.onErrorResponse?.(message.error);
      entry.reject(ProtocolError.from(message.error));
    } else {
      const problem = this.#resultProblem(entry.method, message.result);
      this.#done(entry, problem === undefined ? 'ok' : 'error');
      if (problem !== undefined) {
        entry.reject(new GatewayError('GW_ERR_UPSTREAM_INVALID_RESULT', `upstream '${this.spec.name}' sent an invalid ${entry.method} result: ${problem}`));
        return;
      }
      entry.onResult?.(message.result);
      entry.resolve(message.result);
    }
  }

  /**
   * Why a 2026-07-28 result cannot be used: an unknown `resultType`, or `input_required` answering a request
   * that may not get one. An absent `resultType` is read as `complete` (lenient: the spec requires it, but
   * nothing is gained by refusing an otherwise good result). Legacy results are not judged here.
   */
  #resultProblem(method: string, result: JsonObject): string | undefined {
    if (this.era !== 'modern') return undefined;
    const read = readResultType(result, result.resultType === undefined ? 'legacy' : 'modern');
    if (!read.ok) return read.reason;
    if (read.type === 'input_required' && !mayRequireInput(method)) return `${method} may not be answered with input_required`;
    return undefined;
  }

  /**
   * Progress goes to the call its token names (a token is our id of a call that asked for progress), and only
   * while that call is pending: progress of a call that ended (answered, cancelled, timed out) or that never
   * asked for any is dropped, never relayed: its host may have reused the token for another call.
   */
  #routeProgress(message: JsonRpcNotification): void {
    const token = message.params?.progressToken;
    const entry = typeof token === 'number' ? this.#pending.get(token) : undefined;
    if (!entry?.onProgress) {
      this.#logger.log('debug', `upstream ${this.key}: dropping progress for no call in flight`, { progressToken: token });
      return;
    }
    if (entry.pauses === 0) this.#arm(entry); // progress resets the request timeout
    const { progressToken: _omit, ...rest } = message.params ?? {};
    entry.onProgress(rest);
  }

  /** `outcome` is what the calls still pending count as: cancelled when we close, error when the connection ends under us. */
  #shutdown(reason: string, outcome: UpstreamRequestOutcome = 'error'): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closeReason = reason;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of pending) {
      clearTimeout(entry.timer);
      this.#done(entry, outcome);
      entry.reject(new GatewayError('GW_ERR_UPSTREAM_CLOSED', reason));
    }
    const local = [...this.#localAnswers.values()];
    this.#localAnswers.clear();
    for (const handler of local) handler({ error: new GatewayError('GW_ERR_UPSTREAM_CLOSED', reason).toProtocolError().toJson() });
    this.#handlers.onClose(this, reason);
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
