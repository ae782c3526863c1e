/** @module incident-desk/testing/modern-wire: hand-built 2026-07-28 requests (the `_meta` envelope, the standard headers) for raw tests. */
import { sseMessages } from './sse.js';

export const MODERN_REVISION = '2026-07-28';

export type WireObject = Record<string, unknown>;
export type WireReply = WireObject & { id?: unknown; result?: WireObject; error?: { code: number; message: string; data?: WireObject } };

export const TEST_CLIENT_INFO = { name: 'raw-modern-host', version: '1.0.0' } as const;

/** The per-request `_meta` envelope: revision, the capabilities this one request declares, client info. */
export function envelope(capabilities: WireObject = {}): WireObject {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': TEST_CLIENT_INFO,
  };
}

export function modernRequest(id: number | string, method: string, params: WireObject = {}, capabilities: WireObject = {}): WireObject {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(capabilities) } };
}

/** The headers a 2026-07-28 POST must carry, taken from its body (as a conforming client derives them). */
export function modernHeaders(message: WireObject): Record<string, string> {
  const params = (message.params ?? {}) as WireObject;
  const meta = (params._meta ?? {}) as WireObject;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-method': String(message.method),
  };
  const revision = meta['io.modelcontextprotocol/protocolVersion'];
  if (typeof revision === 'string') headers['mcp-protocol-version'] = revision;
  const name = message.method === 'resources/read' ? params.uri : params.name;
  if (['tools/call', 'prompts/get', 'resources/read'].includes(String(message.method)) && typeof name === 'string') headers['mcp-name'] = name;
  return headers;
}

export interface ModernExchange {
  readonly status: number;
  readonly contentType: string | null;
  readonly reply: WireReply;
}

/** POSTs one message and reads the one reply (a JSON body, or the last message of an SSE stream). */
export async function postModern(url: string, message: WireObject, headers: Record<string, string> = modernHeaders(message)): Promise<ModernExchange> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
  const contentType = response.headers.get('content-type');
  if (contentType?.startsWith('text/event-stream') && response.body) {
    let last: WireReply = {};
    for await (const event of sseMessages(response.body)) last = event as WireReply;
    return { status: response.status, contentType, reply: last };
  }
  return { status: response.status, contentType, reply: (await response.json()) as WireReply };
}
