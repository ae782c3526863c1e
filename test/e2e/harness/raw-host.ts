/**
 * @module e2e/harness/raw-host: a 2025-era Streamable HTTP host written with plain fetch: initialize, one POST per
 * message, each request's SSE stream read incrementally, answers to server questions as new POSTs, the GET stream.
 */
import { MessageReader, type WireMessage } from './sse-reader.js';

export const ACCEPT_BOTH = 'application/json, text/event-stream';
export const LATEST_LEGACY_REVISION = '2025-11-25';

export interface RawHostOptions {
  readonly protocolVersion?: string;
  readonly capabilities?: Record<string, unknown>;
  readonly clientInfo?: { name: string; version: string };
}

/** One message as the host sent or received it. */
export interface WireEntry {
  readonly direction: 'host->gateway' | 'gateway->host';
  readonly message: WireMessage;
}

export interface PostOutcome {
  readonly status: number;
  readonly contentType: string | null;
  /** The response body as text (empty for 202). */
  readonly text: string;
  /** The body parsed as JSON, when it is JSON. */
  readonly json: WireMessage | undefined;
}

function parseJson(text: string): WireMessage | undefined {
  try {
    return JSON.parse(text) as WireMessage;
  } catch {
    return undefined;
  }
}

export class RawHost {
  readonly url: string;
  readonly sessionId: string;
  readonly protocolVersion: string;
  readonly initializeResult: Record<string, unknown>;
  /** Every JSON-RPC message this host sent or received after initialize, in the order it saw them. */
  readonly wire: WireEntry[] = [];
  readonly #readers = new Set<MessageReader>();

  private constructor(url: string, sessionId: string, protocolVersion: string, initializeResult: Record<string, unknown>) {
    this.url = url;
    this.sessionId = sessionId;
    this.protocolVersion = protocolVersion;
    this.initializeResult = initializeResult;
  }

  /** initialize + notifications/initialized; throws (with the bodies) if the gateway refuses either. */
  static async connect(url: string, options: RawHostOptions = {}): Promise<RawHost> {
    const protocolVersion = options.protocolVersion ?? LATEST_LEGACY_REVISION;
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion, capabilities: options.capabilities ?? {}, clientInfo: options.clientInfo ?? { name: 'raw-e2e-host', version: '1.0.0' } },
    };
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: JSON.stringify(init) });
    const sessionId = response.headers.get('mcp-session-id');
    const reader = MessageReader.of(response);
    const answer = await reader.next();
    await reader.close();
    if (response.status !== 200 || !sessionId || !answer?.result) {
      throw new Error(`initialize failed: HTTP ${response.status}, session ${sessionId}, body ${JSON.stringify(answer)}`);
    }
    const negotiated = String(answer.result.protocolVersion);
    const host = new RawHost(url, sessionId, negotiated, answer.result);
    const initialized = await host.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (initialized.status !== 202) throw new Error(`notifications/initialized got HTTP ${initialized.status}: ${initialized.text}`);
    host.wire.length = 0;
    return host;
  }

  /** The same session reached at another URL (another gateway instance of a cluster): its POSTs go there. */
  withUrl(url: string): RawHost {
    return new RawHost(url, this.sessionId, this.protocolVersion, this.initializeResult);
  }

  /** The headers every POST of this session carries. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-session-id': this.sessionId, 'mcp-protocol-version': this.protocolVersion, ...extra };
  }

  /** POSTs a raw body (any text) with this session's headers; reads the whole answer. */
  async postText(body: string, extraHeaders: Record<string, string> = {}): Promise<PostOutcome> {
    const response = await fetch(this.url, { method: 'POST', headers: this.headers(extraHeaders), body });
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type'), text, json: parseJson(text) };
  }

  /** POSTs one message (logged in `wire`) and reads the whole answer: for notifications and responses. */
  post(message: WireMessage, extraHeaders: Record<string, string> = {}): Promise<PostOutcome> {
    this.wire.push({ direction: 'host->gateway', message });
    return this.postText(JSON.stringify(message), extraHeaders);
  }

  /** POSTs a request and returns a reader over its answer stream; throws unless the gateway answered 200. */
  async request(message: WireMessage): Promise<MessageReader> {
    this.wire.push({ direction: 'host->gateway', message });
    const abort = new AbortController();
    const response = await fetch(this.url, { method: 'POST', headers: this.headers(), body: JSON.stringify(message), signal: abort.signal });
    if (response.status !== 200) throw new Error(`${message.method} got HTTP ${response.status}: ${await response.text()}`);
    return this.#track(MessageReader.of(response, abort, (received) => this.wire.push({ direction: 'gateway->host', message: received })));
  }

  /** tools/call `name` with `args` under request id `id`; `meta` becomes `params._meta`. */
  callTool(id: number | string, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>): Promise<MessageReader> {
    return this.request({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta && { _meta: meta }) } });
  }

  /** A request whose whole answer is one message (tools/list, ping…): returns that message. */
  async call(id: number | string, method: string, params?: Record<string, unknown>): Promise<WireMessage> {
    const reader = await this.request({ jsonrpc: '2.0', id, method, ...(params && { params }) });
    const messages = await reader.rest();
    const response = messages.find((message) => message.id === id && (message.result !== undefined || message.error !== undefined));
    if (!response) throw new Error(`${method}: no response among ${JSON.stringify(messages)}`);
    return response;
  }

  /** Answers a server-to-client request with a new POST; returns the HTTP outcome (202 expected). */
  answer(id: WireMessage['id'], result: Record<string, unknown>): Promise<PostOutcome> {
    return this.post({ jsonrpc: '2.0', id, result });
  }

  notify(method: string, params?: Record<string, unknown>): Promise<PostOutcome> {
    return this.post({ jsonrpc: '2.0', method, ...(params && { params }) });
  }

  /** Opens the standalone GET stream; throws unless the gateway answered 200 with SSE. */
  async openGetStream(): Promise<MessageReader> {
    const abort = new AbortController();
    const headers = { accept: 'text/event-stream', 'mcp-session-id': this.sessionId, 'mcp-protocol-version': this.protocolVersion };
    const response = await fetch(this.url, { method: 'GET', headers, signal: abort.signal });
    if (response.status !== 200) throw new Error(`GET stream got HTTP ${response.status}: ${await response.text()}`);
    return this.#track(MessageReader.of(response, abort));
  }

  /** Stops every open stream and ends the session (DELETE); never throws. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#readers].map((reader) => reader.close()));
    await fetch(this.url, { method: 'DELETE', headers: { 'mcp-session-id': this.sessionId, 'mcp-protocol-version': this.protocolVersion } })
      .then((response) => response.body?.cancel())
      .catch(() => undefined);
  }

  #track(reader: MessageReader): MessageReader {
    this.#readers.add(reader);
    void reader.finished.then(() => this.#readers.delete(reader));
    return reader;
  }
}
