/** @module A scriptable raw JSON-RPC 2026-07-28 server over an in-memory transport (no initialize, an envelope on every request), for gateway unit tests. */

import type { JsonObject, JsonRpcErrorObject, JsonRpcMessage, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { REQUEST_META, SERVER_INFO_META } from '../../protocol/meta-keys.js';
import { createLinkedPair } from '../transport/memory/linked-pair.js';
import type { Transport } from '../transport/transport.js';

/** Answers one request: a result (sent as is: the handler decides on `resultType`), or throws a ModernRpcError. */
export type ModernHandler = (request: JsonRpcRequest, server: FakeModernUpstream) => Promise<JsonObject> | JsonObject;

/** Thrown by a handler: the request is answered with exactly this JSON-RPC error. */
export class ModernRpcError extends Error {
  readonly error: JsonRpcErrorObject;
  constructor(error: JsonRpcErrorObject) {
    super(error.message);
    this.error = error;
  }
}

export interface FakeModernOptions {
  /** Answers server/discover (default: 2026-07-28 with tools, prompts and resources). */
  discover?: ModernHandler;
  /** By method (`tools/call`, `prompts/get`…); `tools/call` also by tool name under `tool:NAME`. */
  handlers?: Record<string, ModernHandler>;
}

export const MODERN_SERVER_INFO = { name: 'fake-modern', version: '2' };

/** The default discover result: what a 2026-07-28 server says of itself. */
export function discoverResult(extra: JsonObject = {}): JsonObject {
  return {
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: {}, prompts: {}, resources: {} },
    resultType: 'complete',
    ttlMs: 0,
    cacheScope: 'private',
    _meta: { [SERVER_INFO_META]: MODERN_SERVER_INFO },
    ...extra,
  };
}

/** A complete result, as a 2026-07-28 server stamps it. */
export function complete(result: JsonObject): JsonObject {
  return { resultType: 'complete', ...result };
}

/** A tool result with one text block. */
export function textResult(text: string): JsonObject {
  return complete({ content: [{ type: 'text', text }], isError: false });
}

/** One server (process), as seen through one connection. */
export class FakeModernUpstream {
  readonly received: JsonRpcMessage[] = [];
  #transport: Transport;
  #options: FakeModernOptions;

  constructor(transport: Transport, options: FakeModernOptions) {
    this.#transport = transport;
    this.#options = options;
    transport.onmessage = (message) => void this.#onMessage(message);
  }

  /** The requests received, of one method (in order). */
  requests(method: string): JsonRpcRequest[] {
    return this.received.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m && m.method === method);
  }

  /** Sends a notification (progress, a log line) while a request is being answered. */
  notify(method: string, params: JsonObject): Promise<void> {
    return this.#transport.send({ jsonrpc: '2.0', method, params });
  }

  /** Sends a request to the client, which a 2026-07-28 server must never do. */
  sendRequest(id: string, method: string, params: JsonObject): Promise<void> {
    return this.#transport.send({ jsonrpc: '2.0', id, method, params });
  }

  crash(): Promise<void> {
    return this.#transport.close();
  }

  async #onMessage(message: JsonRpcMessage): Promise<void> {
    this.received.push(message);
    if (!('method' in message) || !('id' in message)) return;
    const send = (body: { result: JsonObject } | { error: JsonRpcErrorObject }) =>
      this.#transport.send({ jsonrpc: '2.0', id: message.id, ...body } as JsonRpcMessage).catch(() => undefined);
    const meta = isObject(message.params?._meta) ? message.params._meta : {};
    if (message.method === 'initialize' || meta[REQUEST_META.protocolVersion] === undefined) {
      await send({ error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: String(message.params?.protocolVersion ?? 'none') } } });
      return;
    }
    const handler = this.#handlerFor(message);
    if (!handler) {
      await send({ error: { code: -32601, message: `Method not found: ${message.method}` } });
      return;
    }
    try {
      await send({ result: await handler(message, this) });
    } catch (error) {
      if (!(error instanceof ModernRpcError)) throw error;
      await send({ error: error.error });
    }
  }

  #handlerFor(request: JsonRpcRequest): ModernHandler | undefined {
    const handlers = this.#options.handlers ?? {};
    if (request.method === 'server/discover') return this.#options.discover ?? (() => discoverResult());
    if (request.method === 'tools/call') return handlers[`tool:${String(request.params?.name)}`] ?? handlers['tools/call'];
    if (request.method === 'tools/list' && !handlers['tools/list']) {
      const tools = Object.keys(handlers).filter((key) => key.startsWith('tool:')).map((key) => ({ name: key.slice(5), inputSchema: { type: 'object' } }));
      return () => complete({ tools, ttlMs: 0, cacheScope: 'private' });
    }
    return handlers[request.method];
  }
}

/** A transport factory that starts a new FakeModernUpstream per connection. */
export function fakeModernFactory(options: FakeModernOptions = {}) {
  const servers: FakeModernUpstream[] = [];
  const open = (): Transport => {
    const [client, server] = createLinkedPair();
    servers.push(new FakeModernUpstream(server, options));
    return client;
  };
  return { open, servers };
}
