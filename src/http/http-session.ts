/** @module One 2025-era HTTP host session: an SDK Streamable HTTP transport and a gateway host session, opened and closed together. */

import { randomUUID } from 'node:crypto';

import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

import type { GatewayHandle, HostChannel, HostSession } from '../gateway/contracts.js';
import type { Logger } from '../gateway/logger.js';
import { RpcCode } from '../protocol/errors.js';
import { errorResponse as jsonRpcError } from '../protocol/jsonrpc.js';
import type { JsonRpcId, JsonRpcMessage } from '../protocol/jsonrpc.js';
import { LEGACY_REVISIONS } from '../protocol/revisions.js';
import { MemoryEventStore } from './memory-event-store.js';

export interface HttpSessionOptions {
  gateway: GatewayHandle;
  logger: Logger;
  /** Closes the session this long after its last request; 0 disables. */
  idleTimeoutMs: number;
  /** Events kept per SSE stream for Last-Event-ID resumption. */
  maxEventsPerStream?: number;
  /** Called once the transport has assigned the session id (during the initialize POST). */
  onInitialized(session: HttpSession): void;
  /** Called once when the session ends, whoever ended it. */
  onClosed(session: HttpSession): void;
}

export class HttpSession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly host: HostSession;
  readonly #options: HttpSessionOptions;
  #id: string | undefined;
  #closed = false;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #standaloneStreams = 0;
  /** Sends go out one after the other, in the order the gateway made them. */
  #outbox: Promise<void> = Promise.resolve();

  /** Opens the gateway host session; throws what `gateway.openSession` throws. */
  constructor(options: HttpSessionOptions) {
    this.#options = options;
    this.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: false,
      eventStore: new MemoryEventStore({ maxEventsPerStream: options.maxEventsPerStream ?? 1000 }),
      supportedProtocolVersions: [...LEGACY_REVISIONS],
      onsessioninitialized: (id) => {
        this.#id = id;
        options.onInitialized(this);
      },
    });
    const channel: HostChannel = {
      send: (message, relatedRequestId) => this.#enqueue(message, relatedRequestId),
      canReachOutsideCalls: () => this.hasStandaloneStream,
      onSessionClosed: () => void this.close('closed by the gateway', { closeHost: false }),
    };
    this.host = options.gateway.openSession(channel);
    this.transport.onmessage = (message) => this.#receive(message as unknown as JsonRpcMessage);
    this.transport.onerror = (error) => options.logger.log('debug', 'http transport rejected a request', { session: this.#id, error: error.message });
    this.transport.onclose = () => void this.close('transport closed', { closeHost: true });
    void this.transport.start();
  }

  /** The `Mcp-Session-Id`, once initialize went through the transport. */
  get id(): string | undefined {
    return this.#id;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Hands a request to the SDK transport, with the body already parsed and checked. */
  async handle(req: Request, parsedBody?: unknown): Promise<Response> {
    const response = await this.transport.handleRequest(req, parsedBody === undefined ? undefined : { parsedBody });
    if (req.method !== 'GET' || response.status !== 200 || !response.body) return response;
    return this.#watchStandaloneStream(response);
  }

  /** Whether the host holds the standalone (GET) stream open, so that a message outside its calls can reach it. */
  get hasStandaloneStream(): boolean {
    return this.#standaloneStreams > 0;
  }

  /** Counts the GET stream as open until it ends or the host drops it. */
  #watchStandaloneStream(response: Response): Response {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    this.#standaloneStreams += 1;
    let open = true;
    const ended = () => {
      if (!open) return;
      open = false;
      this.#standaloneStreams -= 1;
    };
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            ended();
            controller.close();
          } else {
            controller.enqueue(value);
          }
        } catch (error) {
          ended();
          controller.error(error);
        }
      },
      cancel(reason) {
        ended();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** Restarts the idle clock (called for every request on the session). */
  touch(): void {
    if (this.#closed || this.#options.idleTimeoutMs <= 0) return;
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => void this.close('idle timeout', { closeHost: true }), this.#options.idleTimeoutMs);
    this.#idleTimer.unref?.();
  }

  /** Ends the transport (its streams end) and, unless the gateway ended it, the host session. Idempotent. */
  async close(reason: string, { closeHost }: { closeHost: boolean }): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#options.onClosed(this);
    this.#options.logger.log('info', 'host session closed', { session: this.#id, reason });
    await this.transport.close().catch((error: unknown) => this.#warn('closing the transport failed', error));
    if (closeHost) await this.host.close().catch((error: unknown) => this.#warn('closing the host session failed', error));
  }

  #receive(message: JsonRpcMessage): void {
    try {
      this.host.receive(message);
    } catch (error) {
      this.#warn('the gateway failed to take a message', error);
      if ('method' in message && 'id' in message) {
        this.#enqueue(jsonRpcError(message.id, { code: RpcCode.InternalError, message: 'Internal error' }), message.id);
      }
    }
  }

  #enqueue(message: JsonRpcMessage, relatedRequestId: JsonRpcId | undefined): void {
    const sdkMessage = message as unknown as JSONRPCMessage;
    const options = relatedRequestId === undefined ? undefined : { relatedRequestId };
    this.#outbox = this.#outbox
      .then(() => (this.#closed ? undefined : this.transport.send(sdkMessage, options)))
      .catch((error: unknown) => this.#warn('could not deliver a message to the host', error));
  }

  #warn(what: string, error: unknown): void {
    this.#options.logger.log('warn', what, { session: this.#id, error: error instanceof Error ? error.message : String(error) });
  }
}
