/** @module Test helpers: read a text/event-stream body event by event (with the gateway's one SSE parser), and build MCP HTTP requests. */

import { SseEventParser } from '../../../upstream/transport/sse/sse-events.js';

export interface SseEvent {
  id?: string;
  event?: string;
  /** The data lines joined with "\n" ('' for a priming event). */
  data: string;
}

export interface SseReader {
  /** The next event, or undefined once the stream has ended. */
  next(): Promise<SseEvent | undefined>;
  /** Every remaining event until the stream ends. */
  rest(): Promise<SseEvent[]>;
  /** The next event that carries a JSON-RPC message, parsed (priming events and comments are skipped). */
  nextMessage(): Promise<Record<string, unknown> | undefined>;
  /** Disconnects (as a host dropping the connection would). */
  cancel(): Promise<void>;
  /** Id of the last event read that had one. */
  readonly lastEventId: string | undefined;
}

export function readSse(response: Response): SseReader {
  if (response.body === null) throw new Error('response has no body');
  const reader = response.body.getReader();
  const parser = new SseEventParser();
  const queue: SseEvent[] = [];
  let ended = false;
  let lastEventId: string | undefined;

  async function next(): Promise<SseEvent | undefined> {
    while (queue.length === 0 && !ended) {
      const { done, value } = await reader.read();
      if (done) ended = true;
      for (const { event, id, data } of done ? parser.end() : parser.push(value)) {
        queue.push({ data, ...(id === undefined ? {} : { id }), ...(event === undefined ? {} : { event }) });
      }
    }
    const event = queue.shift();
    if (event?.id !== undefined) lastEventId = event.id;
    return event;
  }

  return {
    next,
    async rest() {
      const events: SseEvent[] = [];
      for (let event = await next(); event !== undefined; event = await next()) events.push(event);
      return events;
    },
    async nextMessage() {
      for (let event = await next(); event !== undefined; event = await next()) {
        if (event.data !== '') return JSON.parse(event.data) as Record<string, unknown>;
      }
      return undefined;
    },
    async cancel() {
      ended = true;
      await reader.cancel();
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}

/** Parsed JSON-RPC messages of a list of events (priming events dropped). */
export function messagesOf(events: SseEvent[]): Record<string, unknown>[] {
  return events.filter((e) => e.data !== '').map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

export const BASE = 'http://127.0.0.1:8080';
export const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A POST /mcp with the headers a well-behaved 2025-era host sends. */
export function mcpPost(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${BASE}/mcp`, {
    method: 'POST',
    headers: { ...POST_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function initializeBody(id: number | string = 0, protocolVersion = '2025-11-25'): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: { elicitation: {} }, clientInfo: { name: 'test-host', version: '1.0.0' } },
  };
}

/** Initializes a session through `handle` and returns the headers later requests on it need. */
export async function openTestSession(
  handle: (req: Request) => Promise<Response>,
  protocolVersion = '2025-11-25',
): Promise<{ sessionId: string; headers: Record<string, string>; initResult: Record<string, unknown> }> {
  const response = await handle(mcpPost(initializeBody(0, protocolVersion)));
  if (response.status !== 200) throw new Error(`initialize failed: HTTP ${response.status} ${await response.text()}`);
  const sessionId = response.headers.get('mcp-session-id');
  if (sessionId === null) throw new Error('initialize response has no Mcp-Session-Id');
  const [message] = messagesOf(await readSse(response).rest());
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
  const initialized = await handle(mcpPost({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
  if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
  return { sessionId, headers, initResult: (message?.result ?? {}) as Record<string, unknown> };
}
