/**
 * @module Streamable HTTP client transport for upstreams (2025-03-26 … 2025-11-25). Unlike the SDK's,
 * it tells which of our requests' response streams each message arrived on, which is how a question an
 * upstream asks mid-call is tied to the exact call (see docs/design/002-http-upstream-transport.md).
 */

import type { JsonRpcId, JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { classifyMessage, errorResponse } from '../../protocol/jsonrpc.js';
import type { MessageInfo, Transport } from '../transport.js';
import { TransportError } from '../transport.js';
import { SseParser } from './sse-parser.js';

export interface StreamableHttpClientOptions {
  headers?: Record<string, string>;
  /** Label used in error messages. */
  label?: string;
  /** Delay before reopening a dropped GET stream. */
  reconnectDelayMs?: number;
}

/** Error code synthesized for a call whose response can no longer arrive (stream broken, body unreadable). */
const LOST_RESPONSE = -32000;

export class StreamableHttpClientTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  #url: URL;
  #headers: Record<string, string>;
  #label: string;
  #reconnectDelayMs: number;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #inflight = new Set<AbortController>();
  #closed = false;
  #getStreamOpen = false;

  constructor(url: URL, options: StreamableHttpClientOptions = {}) {
    this.#url = url;
    this.#headers = options.headers ?? {};
    this.#label = options.label ?? url.href;
    this.#reconnectDelayMs = options.reconnectDelayMs ?? 1000;
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) throw new TransportError(`${this.#label}: transport is closed`);
    const isRequest = 'method' in message && 'id' in message;
    const related = isRequest ? (message as { id: JsonRpcId }).id : undefined;
    const controller = this.#track();
    let response: Response;
    try {
      response = await fetch(this.#url, {
        method: 'POST',
        headers: this.#requestHeaders({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
        body: JSON.stringify(message),
        signal: controller.signal,
      });
    } catch (error) {
      this.#inflight.delete(controller);
      throw new TransportError(`${this.#label}: ${describe(error)}`, { cause: error });
    }
    const sessionId = response.headers.get('mcp-session-id');
    if (sessionId && 'method' in message && message.method === 'initialize') this.#sessionId = sessionId;
    if (!response.ok) {
      this.#inflight.delete(controller);
      const text = await response.text().catch(() => '');
      const expired = response.status === 404 && this.#sessionId !== undefined;
      throw new TransportError(`${this.#label}: HTTP ${response.status}${text ? `: ${text.slice(0, 300)}` : ''}`, { sessionExpired: expired });
    }
    if (response.status === 202 || related === undefined) {
      this.#inflight.delete(controller);
      await response.body?.cancel().catch(() => undefined);
      if ('method' in message && message.method === 'notifications/initialized') this.#openGetStream();
      return;
    }
    const contentType = response.headers.get('content-type') ?? '';
    void this.#consume(response, contentType, related, controller);
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

  /** Reads the answer to one of our requests (JSON or an SSE stream) and delivers what it carries. */
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
        await this.#readEvents(response.body, (data) => deliver(data));
      } else {
        deliver(await response.text());
      }
    } catch (error) {
      if (!this.#closed) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.#inflight.delete(controller);
      if (!answered && !this.#closed) {
        const why = `${this.#label}: the response stream ended before the response`;
        this.onmessage?.(errorResponse(related, { code: LOST_RESPONSE, message: why }), { relatedRequestId: related });
      }
    }
  }

  async #readEvents(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
    const parser = new SseParser();
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      for (const event of parser.push(value)) {
        if (event.event === 'message' && event.data !== '') onData(event.data);
      }
    }
  }

  /** The standalone GET stream carries what relates to no request (list changes, unrelated logs). */
  #openGetStream(): void {
    if (this.#closed || this.#getStreamOpen) return;
    this.#getStreamOpen = true;
    void (async () => {
      const controller = this.#track();
      try {
        const response = await fetch(this.#url, {
          method: 'GET',
          headers: this.#requestHeaders({ accept: 'text/event-stream' }),
          signal: controller.signal,
        });
        if (response.status === 404 && this.#sessionId) {
          // The upstream no longer knows our session (it restarted): end this connection so it is re-opened.
          await response.body?.cancel().catch(() => undefined);
          await this.close();
          return;
        }
        if (!response.ok || !response.body) {
          await response.body?.cancel().catch(() => undefined);
          return; // 405: the upstream offers no GET stream
        }
        await this.#readEvents(response.body, (data) => {
          for (const message of parseMessages(data)) this.onmessage?.(message, {});
        });
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
    setTimeout(() => this.#openGetStream(), this.#reconnectDelayMs).unref();
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
