/** @module Bench load client: a minimal raw-fetch MCP Streamable HTTP session (JSON or SSE responses), identical for every target. */

import { readSseEvents } from '../src/upstream/transport/sse/sse-events.js';

export const CLIENT_PROTOCOL_VERSION = '2025-11-25';

interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string };
}

function isResponseFor(value: unknown, id: number): value is JsonRpcResponse {
  return typeof value === 'object' && value !== null && (value as { id?: unknown }).id === id && ('result' in value || 'error' in value);
}

function findResponse(payload: unknown, id: number): JsonRpcResponse | undefined {
  if (Array.isArray(payload)) return payload.find((item): item is JsonRpcResponse => isResponseFor(item, id));
  return isResponseFor(payload, id) ? payload : undefined;
}

/** Reads SSE events (the gateway's own parser) until the response to `id` arrives, then drops the rest of the stream. */
async function readSseResponse(body: ReadableStream<Uint8Array>, id: number): Promise<JsonRpcResponse> {
  for await (const event of readSseEvents(body)) {
    const found = event.data === '' ? undefined : findResponse(JSON.parse(event.data), id);
    if (found) return found; // leaving the loop cancels the body
  }
  throw new Error('SSE stream ended without a response');
}

/** fetch's "fetch failed" with the reason undici keeps in `cause` (ECONNREFUSED, ECONNRESET, ...). */
function withCause(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const detail = cause?.code ?? cause?.message;
  return detail ? new Error(`${error.message} (${detail})`) : error;
}

export interface SessionOptions {
  /** Milliseconds one HTTP exchange may take. */
  timeoutMs: number;
}

/** One host session: initialize on open, then sequential requests carrying the session headers. */
export class McpSession {
  private nextId = 1;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;

  private constructor(
    private readonly url: string,
    private readonly options: SessionOptions,
  ) {}

  static async open(url: string, options: SessionOptions): Promise<McpSession> {
    const session = new McpSession(url, options);
    const result = (await session.request('initialize', {
      protocolVersion: CLIENT_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'switchboard-bench', version: '1.0.0' },
    })) as { protocolVersion?: string };
    session.protocolVersion = result.protocolVersion ?? CLIENT_PROTOCOL_VERSION;
    await session.notify('notifications/initialized');
    return session;
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  private async post(message: object): Promise<Response> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    }).catch((error: unknown) => {
      throw withCause(error);
    });
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new Error(`HTTP ${response.status} ${text.slice(0, 160)}`.trim());
    }
    this.sessionId ??= response.headers.get('mcp-session-id') ?? undefined;
    return response;
  }

  async request(method: string, params?: object): Promise<unknown> {
    const id = this.nextId++;
    const response = await this.post({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    const type = response.headers.get('content-type') ?? '';
    let message: JsonRpcResponse | undefined;
    if (type.includes('text/event-stream') && response.body) message = await readSseResponse(response.body, id);
    else message = findResponse(await response.json(), id);
    if (!message) throw new Error(`no JSON-RPC response to ${method}`);
    if (message.error) throw new Error(`${method}: JSON-RPC error ${message.error.code} ${message.error.message}`);
    return message.result;
  }

  async notify(method: string, params?: object): Promise<void> {
    const response = await this.post({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
    await response.body?.cancel();
  }

  /** Names of the tools the target lists (first page). */
  async toolNames(): Promise<string[]> {
    const result = (await this.request('tools/list')) as { tools?: { name: string }[] };
    return (result.tools ?? []).map((tool) => tool.name);
  }

  /** tools/call of the echo tool (named `tool` by the target); throws unless the text comes back. */
  async echo(tool: string, text: string): Promise<void> {
    const result = (await this.request('tools/call', { name: tool, arguments: { text } })) as { content?: { text?: string }[]; isError?: boolean };
    if (result.isError || result.content?.[0]?.text !== text) throw new Error(`unexpected tools/call result ${JSON.stringify(result).slice(0, 160)}`);
  }

  /** Ends the session with DELETE (best effort: servers may answer 405). */
  async close(): Promise<void> {
    if (!this.sessionId) return;
    try {
      const response = await fetch(this.url, { method: 'DELETE', headers: this.headers(), signal: AbortSignal.timeout(this.options.timeoutMs) });
      await response.body?.cancel();
    } catch {
      // the target may already be gone
    }
  }
}
