/** @module A scriptable raw JSON-RPC MCP server over an in-memory transport, for gateway unit tests. */

import type { JsonObject, JsonRpcErrorObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { createLinkedPair } from '../transport/memory/linked-pair.js';
import type { Transport } from '../transport/transport.js';

export type ToolHandler = (call: JsonRpcRequest, server: FakeUpstream) => Promise<JsonObject> | JsonObject;

/**
 * Thrown by a tool handler: the call is answered with exactly this JSON-RPC error object, and
 * `followedBy` (if given) is sent right behind it, as if one read carried both.
 */
export class FakeRpcError extends Error {
  readonly error: JsonRpcErrorObject;
  readonly followedBy: JsonRpcNotification | undefined;

  constructor(error: JsonRpcErrorObject, followedBy?: JsonRpcNotification) {
    super(error.message);
    this.error = error;
    this.followedBy = followedBy;
  }
}

export interface FakeUpstreamOptions {
  /** The revision the server answers initialize with (default: the one the client asked for). */
  protocolVersion?: string;
  /** A dual-era server: what it answers server/discover with (default: -32601, as a legacy server). */
  discover?: JsonObject;
  /** Annotations tools/list gives a tool, by name. */
  toolAnnotations?: Record<string, JsonObject>;
  /** The error initialize is answered with for these params, if any. */
  refuseInitialize?: (params: JsonObject | undefined) => JsonRpcErrorObject | undefined;
  /** What the server answers initialize with (default: tools with listChanged, and logging). */
  capabilities?: JsonObject;
  /** The instructions of its initialize result (default: none). */
  instructions?: string;
}

/** One upstream server process, as seen through one connection. */
export class FakeUpstream {
  readonly received: JsonRpcMessage[] = [];
  initializeParams: JsonObject | undefined;
  #transport: Transport;
  #tools: Map<string, ToolHandler>;
  #options: FakeUpstreamOptions;
  #nextId = 1;
  #waiting = new Map<number | string, (message: JsonRpcMessage) => void>();

  constructor(transport: Transport, tools: Map<string, ToolHandler>, options: FakeUpstreamOptions = {}) {
    this.#transport = transport;
    this.#tools = tools;
    this.#options = options;
    transport.onmessage = (message) => void this.#onMessage(message);
  }

  /** Sends a request to the client (the gateway) and resolves with its response. */
  ask(method: string, params: JsonObject): Promise<JsonRpcMessage> {
    const id = `up-${this.#nextId++}`;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      void this.#transport.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params?: JsonObject): Promise<void> {
    return this.#transport.send(params ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', method });
  }

  /** Simulates a crash: the connection drops. */
  crash(): Promise<void> {
    return this.#transport.close();
  }

  async #onMessage(message: JsonRpcMessage): Promise<void> {
    this.received.push(message);
    if (!('method' in message)) {
      const resolve = this.#waiting.get(message.id ?? '');
      if (resolve && message.id !== null) {
        this.#waiting.delete(message.id);
        resolve(message);
      }
      return;
    }
    if (!('id' in message)) return;
    const reply = (result: JsonObject) => this.#transport.send({ jsonrpc: '2.0', id: message.id, result }).catch(() => undefined);
    switch (message.method) {
      case 'initialize': {
        this.initializeParams = message.params;
        const refusal = this.#options.refuseInitialize?.(message.params);
        if (refusal) {
          await this.#transport.send({ jsonrpc: '2.0', id: message.id, error: refusal });
          return;
        }
        await reply({
          protocolVersion: this.#options.protocolVersion ?? message.params?.protocolVersion ?? '2025-11-25',
          capabilities: this.#options.capabilities ?? { tools: { listChanged: true }, logging: {} },
          serverInfo: { name: 'fake', version: '1' },
          ...(this.#options.instructions === undefined ? {} : { instructions: this.#options.instructions }),
        });
        return;
      }
      case 'tools/list':
        await reply({
          tools: [...this.#tools.keys()].map((name) => {
            const annotations = this.#options.toolAnnotations?.[name];
            return annotations ? { name, inputSchema: { type: 'object' }, annotations } : { name, inputSchema: { type: 'object' } };
          }),
        });
        return;
      case 'server/discover':
        if (this.#options.discover) await reply(this.#options.discover);
        else await this.#transport.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
        return;
      case 'tools/call': {
        const handler = this.#tools.get(String(message.params?.name));
        if (!handler) {
          await this.#transport.send({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'Unknown tool' } });
          return;
        }
        let result: JsonObject;
        try {
          result = await handler(message, this);
        } catch (error) {
          if (!(error instanceof FakeRpcError)) throw error;
          const sent = this.#transport.send({ jsonrpc: '2.0', id: message.id, error: error.error });
          const behind = error.followedBy ? this.#transport.send(error.followedBy) : undefined;
          await Promise.all([sent, behind]);
          return;
        }
        await reply(result);
        return;
      }
      default:
        await this.#transport.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  }
}

/** A transport factory that starts a new FakeUpstream per connection (like spawning a process). */
export function fakeUpstreamFactory(tools: Record<string, ToolHandler>, options: FakeUpstreamOptions = {}) {
  const servers: FakeUpstream[] = [];
  const open = (): Transport => {
    const [client, server] = createLinkedPair();
    servers.push(new FakeUpstream(server, new Map(Object.entries(tools)), options));
    return client;
  };
  return { open, servers };
}
