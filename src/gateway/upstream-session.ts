/**
 * @module One MCP client session with one upstream over a Transport: the initialize handshake, request
 * ids of our own, per-call timeouts that pause while a host is answering, progress and cancellation.
 */

import { ProtocolError } from '../protocol/errors.js';
import type {
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
} from '../protocol/jsonrpc.js';
import { errorResponse, isErrorResponse, isObject, notification, resultResponse } from '../protocol/jsonrpc.js';
import type { UpstreamSpec } from '../config/types.js';
import type { MessageInfo, Transport } from '../transport/transport.js';
import { TransportError } from '../transport/transport.js';
import { findUpstreamAuthError } from '../transport/upstream-auth-error.js';
import { GatewayError } from './errors.js';
import type { Logger } from './logger.js';

/** Who caused a forwarded call: used to attribute the upstream's questions to a host stream. */
export interface CallContext {
  hostSessionId: string;
  hostRequestId: JsonRpcId;
}

export interface CallOptions {
  timeoutMs?: number;
  context?: CallContext;
  /** Receives the upstream's progress notifications for this call (token already stripped). */
  onProgress?: (params: JsonObject) => void;
  /** Set when the host asked for progress: the upstream then gets a token of ours. */
  wantsProgress?: boolean;
  /** Learns the upstream-side id synchronously (to cancel the call later). */
  onId?: (id: number) => void;
  /**
   * Sees the upstream's error response synchronously, before anything the upstream sent after it is
   * handled (the promise rejects a microtask later): what it tells must be known by then.
   */
  onErrorResponse?: (error: JsonRpcErrorObject) => void;
}

export interface PendingCall {
  readonly id: number;
  readonly method: string;
  readonly context: CallContext | undefined;
  readonly startedAt: number;
}

interface PendingEntry extends PendingCall {
  /** performance.now() when it was sent: the monotonic start of its duration. */
  sentAt: number;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
  onProgress: ((params: JsonObject) => void) | undefined;
  onErrorResponse: ((error: JsonRpcErrorObject) => void) | undefined;
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

let sessionCounter = 0;

export class UpstreamSession {
  readonly spec: UpstreamSpec;
  /** Unique within the process, for logs and maps. */
  readonly key: string;
  protocolVersion: string | undefined;
  serverCapabilities: JsonObject = {};
  serverInfo: JsonObject | undefined;
  instructions: string | undefined;
  /** Cached list results (all pages), dropped on list_changed. */
  readonly listCache = new Map<string, Promise<JsonObject[]>>();

  #transport: Transport;
  #handlers: UpstreamHandlers;
  #logger: Logger;
  #nextId = 1;
  #pending = new Map<number, PendingEntry>();
  #closed = false;
  #closeReason = '';

  constructor(spec: UpstreamSpec, transport: Transport, handlers: UpstreamHandlers, logger: Logger) {
    this.spec = spec;
    this.key = `${spec.name}#${++sessionCounter}`;
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

  /** Starts the transport and performs initialize + notifications/initialized. */
  async connect(params: InitializeParams): Promise<void> {
    const timeout = this.spec.connectTimeoutMs;
    await withTimeout(this.#transport.start(), timeout, `upstream '${this.spec.name}' did not start within ${timeout} ms`);
    const result = await this.request('initialize', params as unknown as JsonObject, { timeoutMs: timeout });
    this.protocolVersion = typeof result.protocolVersion === 'string' ? result.protocolVersion : undefined;
    this.serverCapabilities = isObject(result.capabilities) ? result.capabilities : {};
    this.serverInfo = isObject(result.serverInfo) ? result.serverInfo : undefined;
    this.instructions = typeof result.instructions === 'string' ? result.instructions : undefined;
    if (this.protocolVersion) this.#transport.setProtocolVersion?.(this.protocolVersion);
    await this.notify('notifications/initialized');
  }

  /** Sends a request and resolves with its result; rejects with a ProtocolError or GatewayError. */
  request(method: string, params: JsonObject | undefined, options: CallOptions = {}): Promise<JsonObject> {
    if (this.#closed) {
      return Promise.reject(new GatewayError('GW_ERR_UPSTREAM_CLOSED', this.#closeReason || `upstream '${this.spec.name}' is closed`));
    }
    const id = this.#nextId++;
    options.onId?.(id);
    let outParams = params;
    if (options.wantsProgress) {
      const meta = isObject(params?._meta) ? params._meta : {};
      outParams = { ...params, _meta: { ...meta, progressToken: id } };
    }
    return new Promise<JsonObject>((resolve, reject) => {
      const entry: PendingEntry = {
        id,
        method,
        context: options.context,
        startedAt: Date.now(),
        sentAt: performance.now(),
        resolve,
        reject,
        onProgress: options.onProgress,
        onErrorResponse: options.onErrorResponse,
        timeoutMs: options.timeoutMs ?? this.spec.requestTimeoutMs,
        timer: undefined,
        pauses: 0,
      };
      this.#pending.set(id, entry);
      this.#arm(entry);
      const message: JsonRpcRequest = outParams === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: outParams };
      this.#transport.send(message).catch((error: unknown) => {
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
    void this.notify('notifications/cancelled', { requestId: id, reason }).catch(() => undefined);
  }

  respond(id: JsonRpcId, result: JsonObject): void {
    this.#sendQuietly(resultResponse(id, result));
  }

  respondError(id: JsonRpcId, error: ProtocolError): void {
    this.#sendQuietly(errorResponse(id, error.toJson()));
  }

  /** A call still waiting for an answer, by our id. */
  pendingCall(id: number): PendingCall | undefined {
    return this.#pending.get(id);
  }

  /** Calls still waiting for an answer, oldest first. */
  pendingCalls(): PendingCall[] {
    return [...this.#pending.values()].filter((entry) => entry.method !== 'initialize');
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
      if (entry.method !== 'initialize') {
        void this.notify('notifications/cancelled', { requestId: entry.id, reason: 'timeout' }).catch(() => undefined);
      }
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
        this.#handlers.onRequest(this, message, related);
        return;
      }
      if (message.method === 'notifications/progress' && this.#routeProgress(message)) return;
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
      this.#done(entry, 'ok');
      entry.resolve(message.result);
    }
  }

  #routeProgress(message: JsonRpcNotification): boolean {
    const token = message.params?.progressToken;
    if (typeof token !== 'number') return false;
    const entry = this.#pending.get(token);
    if (!entry?.onProgress) return false;
    if (entry.pauses === 0) this.#arm(entry); // progress resets the request timeout
    const { progressToken: _omit, ...rest } = message.params ?? {};
    entry.onProgress(rest);
    return true;
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
