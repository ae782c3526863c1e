/** @module Test double of GatewayHandle: scripted host sessions that answer initialize, echo tools, ask the host questions and hold calls. */

import type { GatewayHandle, HealthReport, HostChannel, HostSession, ModernExchange, ModernRequestContext, ModernSink, Verdict } from '../../../ports/host-contracts.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../../../protocol/jsonrpc.js';
import { negotiateRevision } from '../../../protocol/revisions.js';
import { createMcpHttpHandler } from '../mcp-handler.js';
import type { McpHttpHandler, McpHttpHandlerSettings } from '../mcp-handler.js';

/**
 * Scripted tools (by `params.name` of tools/call):
 * - `echo`: a related `notifications/message`, then a result with `arguments.text`.
 * - `ask`: a related server-to-client `elicitation/create` (id `srv-<n>`); the host's answer is echoed back as the result
 *   (an invalid one, refused by `receive`, ends the call at once with an isError result naming the refusal).
 * - `hold`: a related `notifications/progress` (progress 1); the result waits for `release(id)`.
 * Other methods: `ping` → `{}`, `initialize` → an InitializeResult; anything else → -32601.
 */
export class FakeHostSession implements HostSession {
  readonly id: string;
  readonly channel: HostChannel;
  /** Every message the session took from the edge, in order (refused answers are not among them). */
  readonly received: JsonRpcMessage[] = [];
  /** Invalid answers the edge handed in and the session refused (each settled its question). */
  readonly admitted: JsonRpcResponse[] = [];
  protocolVersion: string | undefined;
  closed = false;
  /** Server-to-client request id → the host request it belongs to. */
  readonly #awaiting = new Map<JsonRpcId, JsonRpcId>();
  readonly #held = new Set<JsonRpcId>();
  #nextServerId = 1;

  constructor(id: string, channel: HostChannel) {
    this.id = id;
    this.channel = channel;
  }

  receive(message: JsonRpcMessage): Verdict {
    if (!('method' in message)) return this.#onAnswer(message);
    this.received.push(message);
    if ('id' in message) this.#onRequest(message);
    return { ok: true };
  }

  expectsResponse(id: JsonRpcId): boolean {
    return this.#awaiting.has(id);
  }

  /** Unknown ids are refused; an answer whose result carries `invalid: true` stands for one that breaks its schema. */
  #check(message: JsonRpcResponse): Verdict {
    if (message.id === null || !this.#awaiting.has(message.id)) return { ok: false, kind: 'unknown', reason: `Unknown response id ${JSON.stringify(message.id)}` };
    if ('result' in message && message.result.invalid === true) return { ok: false, kind: 'invalid', reason: 'field "invalid": not allowed' };
    return { ok: true };
  }

  /** As the real session: an answer is checked once; an invalid one settles its question at once (the `ask` call ends with the refusal). */
  #onAnswer(message: JsonRpcResponse): Verdict {
    const check = this.#check(message);
    if (check.ok) {
      this.received.push(message);
      this.#onResponse(message.id);
      return check;
    }
    if (check.kind !== 'invalid' || message.id === null) return check;
    this.admitted.push(message);
    const hostRequestId = this.#awaiting.get(message.id) as JsonRpcId;
    this.#awaiting.delete(message.id);
    this.#answer(hostRequestId, { content: [{ type: 'text', text: `refused: ${check.reason}` }], isError: true });
    return check;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Sends a message on the session's standalone stream (HTTP: the GET stream). */
  push(message: JsonRpcMessage): void {
    this.channel.send(message);
  }

  /** Finishes a `hold` call: one more progress notification, then the result. */
  release(requestId: JsonRpcId, text = 'released'): void {
    if (!this.#held.delete(requestId)) throw new Error(`no held call ${String(requestId)}`);
    this.channel.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: requestId, progress: 2 } }, requestId);
    this.#answer(requestId, { content: [{ type: 'text', text }] });
  }

  /** Ends the session from the gateway side (as an idle timeout or shutdown would). */
  closeFromGateway(): void {
    this.closed = true;
    this.channel.onSessionClosed?.();
  }

  #onRequest(request: JsonRpcRequest): void {
    const params = request.params ?? {};
    switch (request.method) {
      case 'initialize':
        this.protocolVersion = negotiateRevision(params.protocolVersion);
        return this.#answer(request.id, {
          protocolVersion: this.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'fake-gateway', version: '0.0.0' },
        });
      case 'ping':
        return this.#answer(request.id, {});
      case 'tools/call':
        return this.#onToolCall(request.id, String(params.name), (params.arguments ?? {}) as Record<string, unknown>);
      default:
        this.channel.send({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: `Method not found: ${request.method}` } }, request.id);
    }
  }

  #onToolCall(id: JsonRpcId, name: string, args: Record<string, unknown>): void {
    switch (name) {
      case 'echo':
        this.channel.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'echoing' } }, id);
        return this.#answer(id, { content: [{ type: 'text', text: String(args.text) }] });
      case 'ask': {
        const serverId = `srv-${this.#nextServerId++}`;
        this.#awaiting.set(serverId, id);
        const question = { message: 'Pick a queue', requestedSchema: { type: 'object', properties: { queue: { type: 'string' } } } };
        return this.channel.send({ jsonrpc: '2.0', id: serverId, method: 'elicitation/create', params: question }, id);
      }
      case 'hold':
        this.#held.add(id);
        return this.channel.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1 } }, id);
      default:
        this.#answer(id, { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true });
    }
  }

  #onResponse(serverId: JsonRpcId | null): void {
    if (serverId === null) return;
    const hostRequestId = this.#awaiting.get(serverId);
    if (hostRequestId === undefined) return;
    this.#awaiting.delete(serverId);
    const answer = this.received.at(-1);
    this.#answer(hostRequestId, { content: [{ type: 'text', text: JSON.stringify(answer && 'result' in answer ? answer.result : null) }] });
  }

  #answer(id: JsonRpcId, result: Record<string, unknown>): void {
    this.channel.send({ jsonrpc: '2.0', id, result }, id);
  }
}

export class FakeGateway implements GatewayHandle {
  /** What callsInFlight() says (a test sets it). */
  inFlight = 0;

  callsInFlight(): number {
    return this.inFlight;
  }

  readonly sessions: FakeHostSession[] = [];
  readonly ready: Promise<void>;
  isReady = true;
  closed = false;
  /** When set, openSession throws it. */
  refuseSessions: Error | undefined;
  #markReady: () => void = () => undefined;

  constructor(options: { ready?: boolean } = {}) {
    this.isReady = options.ready ?? true;
    this.ready = new Promise((resolve) => {
      this.#markReady = resolve;
    });
    if (this.isReady) this.#markReady();
  }

  setReady(): void {
    this.isReady = true;
    this.#markReady();
  }

  openSession(channel: HostChannel): FakeHostSession {
    if (this.refuseSessions) throw this.refuseSessions;
    const session = new FakeHostSession(`host-${this.sessions.length + 1}`, channel);
    this.sessions.push(session);
    return session;
  }

  session(id: string): HostSession | undefined {
    return this.sessions.find((s) => s.id === id && !s.closed);
  }

  /** Every 2026-07-28 request the edge handed over, with its context, and why each was cancelled (if it was). */
  readonly modern: { request: JsonRpcRequest; context: ModernRequestContext; cancelled?: string }[] = [];

  /**
   * 2026-07-28 requests: tools/call `echo` → a result with `arguments.text`; `hold` → a progress
   * notification, then nothing until cancelled; anything else → -32601.
   */
  serveModern(request: JsonRpcRequest, context: ModernRequestContext, sink: ModernSink): ModernExchange {
    const entry: { request: JsonRpcRequest; context: ModernRequestContext; cancelled?: string } = { request, context };
    this.modern.push(entry);
    const name = request.params?.name;
    const args = request.params?.arguments as { text?: string } | undefined;
    if (request.method === 'tools/call' && name === 'echo') {
      sink.respond({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: args?.text ?? '' }], resultType: 'complete' } });
    } else if (request.method === 'tools/call' && name === 'hold') {
      sink.notify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } });
    } else {
      sink.respond({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: `Method not found: ${request.method}` } });
    }
    return {
      cancel: (reason) => {
        entry.cancelled = reason;
      },
    };
  }

  /** The most recently opened session. */
  get last(): FakeHostSession {
    const session = this.sessions.at(-1);
    if (session === undefined) throw new Error('no session opened yet');
    return session;
  }

  compositeProblems(): { missing: string[]; unchecked: string[] } {
    return { missing: [], unchecked: [] };
  }

  health(): HealthReport {
    return {
      ready: this.isReady,
      upstreams: [{ name: 'desk', transport: 'stdio', state: this.isReady ? 'up' : 'pending' }],
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.sessions.map((s) => s.close()));
  }
}

/** A fresh FakeGateway and the `/mcp` handler in front of it (for a `beforeEach`). */
export function fakeMcpEdge(settings: McpHttpHandlerSettings): { gateway: FakeGateway; handler: McpHttpHandler } {
  const gateway = new FakeGateway();
  return { gateway, handler: createMcpHttpHandler(gateway, settings) };
}
