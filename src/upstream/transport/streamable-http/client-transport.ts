/**
 * @module Streamable HTTP client transport for upstreams (2025-03-26 … 2026-07-28). Unlike the SDK's,
 * it tells which of our requests' response streams each message arrived on, which is how a question an
 * upstream asks mid-call is tied to the exact call (see docs/design/002-http-upstream-transport.md).
 * A request carrying the 2026-07-28 envelope gets the modern headers, and its refusal (a JSON-RPC error
 * with a 4xx) is delivered as its answer (docs/design/008-modern-upstreams.md).
 */

import { RpcCode } from '../../../protocol/errors.js';
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcMessage } from '../../../protocol/jsonrpc.js';
import { classifyMessage, errorResponse, isObject } from '../../../protocol/jsonrpc.js';
import { modernRequestHeaders } from '../../../protocol/modern-headers.js';
import { envelopeProtocolVersion } from '../../../protocol/request-envelope.js';
import type { MessageInfo, SendOptions, Transport } from '../transport.js';
import { TransportError } from '../transport.js';
import { readSseEvents, SseEventParser } from '../sse/sse-events.js';
import { refusalForgetsSession } from './forgotten-session.js';

/** Supplies credentials for an upstream that wants them (OAuth); the transport stays ignorant of how they are got. */
export interface HttpAuthorizer {
  /** Headers carrying the current credentials (for example `authorization: Bearer …`); none yet is `{}`. */
  headers(): Promise<Record<string, string>>;
  /** The upstream refused a request (401, or 403 with `insufficient_scope`). Resolves true once new credentials are ready to retry with. */
  challenge(response: Response, url: URL): Promise<boolean>;
}

export interface StreamableHttpClientOptions {
  headers?: Record<string, string>;
  /** Label used in error messages. */
  label?: string;
  /** Delay before reopening a dropped stream when the server did not say (`retry:`). */
  reconnectDelayMs?: number;
  authorizer?: HttpAuthorizer;
  /**
   * Whether to open the standalone GET stream after initialize (default true). A short-lived session (the
   * startup probe) does not: it wants no server messages, and a stream it holds could catch ones meant for
   * a real session of an upstream that cannot tell its sessions apart.
   */
  standaloneStream?: boolean;
}

/** Error code synthesized for a call whose response can no longer arrive (stream broken, body unreadable). */
const LOST_RESPONSE = RpcCode.UpstreamUnavailable;
/** A request may meet this many auth challenges in a row before its refusal is final. */
const MAX_CHALLENGES = 3;
/** A response stream is resumed (GET + Last-Event-ID) until this many reconnections in a row bring nothing new. */
const MAX_IDLE_RESUMES = 3;

export class StreamableHttpClientTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  #url: URL;
  #headers: Record<string, string>;
  #label: string;
  #reconnectDelayMs: number;
  #authorizer: HttpAuthorizer | undefined;
  #standaloneStream: boolean;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #inflight = new Set<AbortController>();
  /** The controller of each request of ours still being answered, to cancel it by closing its stream. */
  #byRequest = new Map<JsonRpcId, AbortController>();
  #closed = false;
  #getStreamOpen = false;
  /** Where the standalone GET stream got to, so a reconnection resumes it. */
  #getStream: { lastEventId?: string; retryMs?: number } = {};

  constructor(url: URL, options: StreamableHttpClientOptions = {}) {
    this.#url = url;
    this.#headers = options.headers ?? {};
    this.#label = options.label ?? url.href;
    this.#reconnectDelayMs = options.reconnectDelayMs ?? 1000;
    this.#authorizer = options.authorizer;
    this.#standaloneStream = options.standaloneStream ?? true;
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  async send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if (this.#closed) throw new TransportError(`${this.#label}: transport is closed`);
    const isRequest = 'method' in message && 'id' in message;
    const related = isRequest ? (message as { id: JsonRpcId }).id : undefined;
    const modern = 'method' in message && envelopeProtocolVersion(message.params) !== undefined;
    const controller = this.#track();
    if (related !== undefined) this.#byRequest.set(related, controller);
    const done = () => {
      this.#inflight.delete(controller);
      if (related !== undefined && this.#byRequest.get(related) === controller) this.#byRequest.delete(related);
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...lowerCased(options?.headers ?? {}), ...(modern ? lowerCased(modernRequestHeaders(message)) : {}) };
    let response: Response;
    try {
      response = await this.#fetch('POST', headers, controller.signal, JSON.stringify(message));
    } catch (error) {
      done();
      throw new TransportError(`${this.#label}: ${describe(error)}`, { cause: error });
    }
    const sessionId = response.headers.get('mcp-session-id');
    if (sessionId && 'method' in message && message.method === 'initialize') this.#sessionId = sessionId;
    if (!response.ok) {
      done();
      const text = await response.text().catch(() => '');
      const body = parseMessages(text)[0];
      if (modern && related !== undefined && body && !('method' in body) && body.id === related) {
        // A 2026-07-28 server refuses with a JSON-RPC error and a 4xx (-32022, -32020, -32602, -32601…): that is its answer.
        this.onmessage?.(body, { relatedRequestId: related });
        return;
      }
      const rpcError = rpcErrorOf(body);
      const expired = this.#sessionId !== undefined && refusalForgetsSession(response.status, rpcError?.message ?? text);
      throw new TransportError(`${this.#label}: HTTP ${response.status}${text ? `: ${text.slice(0, 300)}` : ''}`, {
        sessionExpired: expired,
        status: response.status,
        ...(rpcError ? { rpcError } : {}),
      });
    }
    if (response.status === 202 || related === undefined) {
      done();
      await response.body?.cancel().catch(() => undefined);
      if ('method' in message && message.method === 'notifications/initialized' && this.#standaloneStream) this.#openGetStream();
      return;
    }
    const contentType = response.headers.get('content-type') ?? '';
    void this.#consume(response, contentType, related, controller).finally(done);
  }

  /** Closes the response stream of one request of ours: how a 2026-07-28 request is cancelled over HTTP. */
  abortRequest(id: JsonRpcId): boolean {
    const controller = this.#byRequest.get(id);
    this.#byRequest.delete(id);
    controller?.abort();
    return true;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const controller of this.#inflight) controller.abort();
    this.#inflight.clear();
    if (this.#sessionId) {
      await fetch(this.#url, { method: 'DELETE', headers: this.#requestHeaders({}), signal: AbortSignal.timeout(2000) })
        .then((r) => r.body?.cancel())
        .catch(() => undefined);
    }
    this.onclose?.();
  }

  /**
   * Reads the answer to one of our requests (JSON or an SSE stream) and delivers what it carries. An SSE stream
   * that ends before the response, after giving an event id, is resumed with GET + Last-Event-ID once the
   * server's `retry:` has passed (2025-11-25 servers close streams on purpose to poll); what the resumed stream
   * carries still belongs to this request.
   */
  async #consume(response: Response, contentType: string, related: JsonRpcId, controller: AbortController): Promise<void> {
    let answered = false;
    const deliver = (text: string) => {
      for (const message of parseMessages(text)) {
        if (!('method' in message) && message.id === related) answered = true;
        this.onmessage?.(message, { relatedRequestId: related });
      }
    };
    try {
      if (contentType.includes('text/event-stream') && response.body) {
        const stream = { lastEventId: undefined as string | undefined, retryMs: undefined as number | undefined };
        await this.#readEvents(response.body, deliver, stream, () => answered);
        for (let idle = 0; !answered && !this.#closed && stream.lastEventId !== undefined && idle < MAX_IDLE_RESUMES; ) {
          const resumedFrom = stream.lastEventId;
          await pause(stream.retryMs ?? this.#reconnectDelayMs, controller.signal);
          if (this.#closed || controller.signal.aborted) break;
          const resumed = await this.#fetch('GET', { accept: 'text/event-stream', 'last-event-id': resumedFrom }, controller.signal);
          if (!resumed.ok || !resumed.body || !(resumed.headers.get('content-type') ?? '').includes('text/event-stream')) {
            await resumed.body?.cancel().catch(() => undefined);
            break;
          }
          const delivered = await this.#readEvents(resumed.body, deliver, stream, () => answered);
          idle = delivered > 0 || stream.lastEventId !== resumedFrom ? 0 : idle + 1;
        }
      } else {
        deliver(await response.text());
      }
    } catch (error) {
      if (!this.#closed && !controller.signal.aborted) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.#inflight.delete(controller);
      if (!answered && !this.#closed && !controller.signal.aborted) {
        const why = `${this.#label}: the response stream ended before the response`;
        this.onmessage?.(errorResponse(related, { code: LOST_RESPONSE, message: why }), { relatedRequestId: related });
      }
    }
  }

  /**
   * Reads one SSE body, handing each message's data to `onData`, until it ends or `finished()` turns true (then
   * the body is cancelled). Keeps `stream`'s last event id and retry current. Returns how many messages it read.
   */
  async #readEvents(
    body: ReadableStream<Uint8Array>,
    onData: (data: string) => void,
    stream: { lastEventId?: string; retryMs?: number } = {},
    finished: () => boolean = () => false,
  ): Promise<number> {
    const parser = new SseEventParser();
    let count = 0;
    for await (const event of readSseEvents(body, parser)) {
      if ((event.event ?? 'message') === 'message' && event.data !== '') {
        count += 1;
        onData(event.data);
      }
      stream.lastEventId = parser.lastEventId ?? stream.lastEventId;
      stream.retryMs = parser.retryMs ?? stream.retryMs;
      if (finished()) break; // leaving the loop cancels the body
    }
    stream.lastEventId = parser.lastEventId ?? stream.lastEventId;
    stream.retryMs = parser.retryMs ?? stream.retryMs;
    return count;
  }

  /** The standalone GET stream carries what relates to no request (list changes, unrelated logs). */
  #openGetStream(): void {
    if (this.#closed || this.#getStreamOpen) return;
    this.#getStreamOpen = true;
    void (async () => {
      const controller = this.#track();
      const resume: Record<string, string> = this.#getStream.lastEventId === undefined ? {} : { 'last-event-id': this.#getStream.lastEventId };
      try {
        const response = await this.#fetch('GET', { accept: 'text/event-stream', ...resume }, controller.signal);
        if (!response.ok && this.#sessionId && (await this.#forgetsSession(response))) {
          // The upstream no longer knows our session (it restarted): end this connection so it is re-opened.
          await this.close();
          return;
        }
        if (!response.ok || !response.body) {
          await response.body?.cancel().catch(() => undefined);
          return; // 405: the upstream offers no GET stream
        }
        await this.#readEvents(
          response.body,
          (data) => {
            for (const message of parseMessages(data)) this.onmessage?.(message, {});
          },
          this.#getStream,
        );
        this.#scheduleReopen();
      } catch {
        this.#scheduleReopen();
      } finally {
        this.#inflight.delete(controller);
        this.#getStreamOpen = false;
      }
    })();
  }

  #scheduleReopen(): void {
    if (this.#closed) return;
    setTimeout(() => this.#openGetStream(), this.#getStream.retryMs ?? this.#reconnectDelayMs).unref();
  }

  /** One HTTP exchange with the upstream; a refusal the authorizer can answer (401, 403 insufficient_scope) is retried with the new credentials. */
  async #fetch(method: 'GET' | 'POST', base: Record<string, string>, signal: AbortSignal, body?: string): Promise<Response> {
    for (let challenges = 0; ; challenges += 1) {
      const credentials = this.#authorizer ? await this.#authorizer.headers() : {};
      const response = await fetch(this.#url, { method, headers: this.#requestHeaders({ ...credentials, ...base }), body, signal });
      if (!this.#authorizer || challenges >= MAX_CHALLENGES || !isAuthChallenge(response)) return response;
      const retry = await this.#authorizer.challenge(response, this.#url);
      if (!retry) return response;
      await response.body?.cancel().catch(() => undefined);
    }
  }

  /** Whether a refused GET says the upstream no longer knows our session (reads the body). */
  async #forgetsSession(response: Response): Promise<boolean> {
    const text = await response.text().catch(() => '');
    return refusalForgetsSession(response.status, rpcErrorOf(parseMessages(text)[0])?.message ?? text);
  }

  #track(): AbortController {
    const controller = new AbortController();
    this.#inflight.add(controller);
    return controller;
  }

  #requestHeaders(base: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...this.#headers, ...base };
    if (this.#sessionId) headers['mcp-session-id'] = this.#sessionId;
    if (this.#protocolVersion) headers['mcp-protocol-version'] = this.#protocolVersion;
    return headers;
  }
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function isAuthChallenge(response: Response): boolean {
  if (response.status === 401) return true;
  return response.status === 403 && /insufficient_scope/.test(response.headers.get('www-authenticate') ?? '');
}

/** Waits `ms`, or less if `signal` aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** The JSON-RPC error a refusal's body carries, if it is an error response. */
function rpcErrorOf(body: JsonRpcMessage | undefined): JsonRpcErrorObject | undefined {
  return body && !('method' in body) && 'error' in body && isObject(body.error) ? (body.error as JsonRpcErrorObject) : undefined;
}

function parseMessages(text: string): JsonRpcMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const items = Array.isArray(value) ? value : [value];
  const out: JsonRpcMessage[] = [];
  for (const item of items) {
    const classified = classifyMessage(item);
    if (classified.kind !== 'invalid') out.push(classified.message);
  }
  return out;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message !== error.message ? `${error.message} (${cause.message})` : error.message;
}
