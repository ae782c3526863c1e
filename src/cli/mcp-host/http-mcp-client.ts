/**
 * @module A small MCP host over Streamable HTTP (2025 revisions) in raw JSON-RPC: initialize, one POST per message,
 * each request's answer read as JSON or as an SSE stream whose other messages (questions, progress) are handed to
 * the caller in order, answers to the server's questions as new POSTs, DELETE at the end.
 *
 * Raw on purpose: the gateway relays fields the SDK's client would strip, and `switchboard call` shows them.
 */

import { LocalError } from '../../core/errors/local.js';
import type { JsonObject, JsonRpcId, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { classifyMessage } from '../../protocol/jsonrpc.js';
import type { Classified } from '../../protocol/jsonrpc.js';
import { readSseEvents } from '../../upstream/transport/sse/sse-events.js';
import { fetchOrConnectError } from '../connect-error.js';

const ACCEPT = 'application/json, text/event-stream';

/** A message from the server other than the response being waited for. */
export type ServerMessage = Exclude<Classified, { kind: 'invalid' }>;

/** The server answered a POST with an HTTP error status (not a JSON-RPC error inside a 200). */
export class McpHttpError extends LocalError {
  override readonly name = 'McpHttpError';
  override readonly code = 'mcp-http-status';
  readonly status: number;
  /** The JSON-RPC error of the body, when it has one. */
  readonly rpcError: { code: number; message: string; data?: unknown } | undefined;

  constructor(status: number, message: string, rpcError?: { code: number; message: string; data?: unknown }) {
    super(message);
    this.status = status;
    this.rpcError = rpcError;
  }
}

export interface ConnectOptions {
  protocolVersion: string;
  capabilities: JsonObject;
  clientInfo: { name: string; version: string };
}

/** The JSON-RPC error object of a body, if it is one. */
function rpcErrorOf(body: unknown): McpHttpError['rpcError'] {
  const classified = classifyMessage(body);
  return classified.kind === 'response' && 'error' in classified.message ? classified.message.error : undefined;
}

async function httpError(response: Response, what: string): Promise<McpHttpError> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const rpcError = rpcErrorOf(body);
  const detail = rpcError?.message ?? (text.trim().slice(0, 200) || response.statusText);
  return new McpHttpError(response.status, `${what}: HTTP ${response.status}${detail ? `: ${detail}` : ''}`, rpcError);
}

function parseJson(text: string, status: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new McpHttpError(status, 'the gateway sent a message that is not JSON');
  }
}

/** Every JSON-RPC message of a response body (one JSON message, a JSON batch, or an SSE stream), in order. */
async function* messagesOf(response: Response): AsyncGenerator<Classified> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/event-stream')) {
    const text = await response.text();
    if (text.trim() === '') return;
    const parsed = parseJson(text, response.status);
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) yield classifyMessage(item);
    return;
  }
  if (response.body === null) return;
  // Leaving early (the caller failed or stopped) cancels the body rather than leave it half read.
  for await (const event of readSseEvents(response.body)) {
    if (event.data.trim() === '') continue;
    yield classifyMessage(parseJson(event.data, response.status));
  }
}

export class HttpMcpClient {
  readonly url: URL;
  readonly sessionId: string | undefined;
  readonly protocolVersion: string;
  readonly initializeResult: JsonObject;
  #nextId = 1;

  private constructor(url: URL, sessionId: string | undefined, protocolVersion: string, initializeResult: JsonObject) {
    this.url = url;
    this.sessionId = sessionId;
    this.protocolVersion = protocolVersion;
    this.initializeResult = initializeResult;
  }

  /** `initialize` and `notifications/initialized`; throws McpHttpError when the server refuses either. */
  static async connect(url: URL, options: ConnectOptions): Promise<HttpMcpClient> {
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: options.protocolVersion, capabilities: options.capabilities, clientInfo: options.clientInfo } };
    const response = await fetchOrConnectError(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: JSON.stringify(init) });
    if (!response.ok) throw await httpError(response, 'initialize was refused');
    let answer: JsonRpcResponse | undefined;
    for await (const message of messagesOf(response)) {
      if (message.kind === 'response' && message.message.id === 0) answer = message.message;
    }
    if (answer === undefined) throw new McpHttpError(response.status, 'initialize got no response');
    if ('error' in answer) throw new McpHttpError(response.status, `initialize was refused: ${answer.error.message}`, answer.error);
    const negotiated = typeof answer.result.protocolVersion === 'string' ? answer.result.protocolVersion : options.protocolVersion;
    const client = new HttpMcpClient(url, response.headers.get('mcp-session-id') ?? undefined, negotiated, answer.result);
    const initialized = await client.#post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (!initialized.ok) throw await httpError(initialized, 'notifications/initialized was refused');
    await initialized.body?.cancel();
    return client;
  }

  #headers(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': this.protocolVersion };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    return headers;
  }

  #post(message: JsonObject): Promise<Response> {
    return fetchOrConnectError(this.url, { method: 'POST', headers: this.#headers(), body: JSON.stringify(message) });
  }

  /**
   * Sends a request and reads its answer. Every other message on its stream (the server's questions, progress,
   * log lines) goes to `onMessage`, one at a time, in order; reading waits while `onMessage` works (a person
   * answering a form). Resolves with this request's response.
   */
  async request(method: string, params: JsonObject, onMessage: (message: ServerMessage) => Promise<void> | void): Promise<JsonRpcResponse> {
    const id: JsonRpcId = this.#nextId++;
    const response = await this.#post({ jsonrpc: '2.0', id, method, params });
    if (!response.ok) throw await httpError(response, `${method} was refused`);
    let answer: JsonRpcResponse | undefined;
    for await (const message of messagesOf(response)) {
      if (message.kind === 'invalid') continue;
      if (message.kind === 'response' && message.message.id === id) answer = message.message;
      else await onMessage(message);
    }
    if (answer === undefined) throw new McpHttpError(response.status, `the gateway ended the ${method} stream without a response`);
    return answer;
  }

  /** Answers a server request (a result, or a JSON-RPC error) with a new POST; throws McpHttpError unless it was taken (202). */
  async respond(id: JsonRpcId, answer: { result: JsonObject } | { error: { code: number; message: string } }): Promise<void> {
    const response = await this.#post({ jsonrpc: '2.0', id, ...answer });
    if (!response.ok) throw await httpError(response, 'the answer was refused');
    await response.body?.cancel();
  }

  /** Ends the session (DELETE); never throws. */
  async close(): Promise<void> {
    if (this.sessionId === undefined) return;
    await fetch(this.url, { method: 'DELETE', headers: { 'mcp-session-id': this.sessionId, 'mcp-protocol-version': this.protocolVersion } })
      .then((response) => response.body?.cancel())
      .catch(() => undefined);
  }
}
