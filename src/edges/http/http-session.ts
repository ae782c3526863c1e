/** @module One 2025-era HTTP host session: our session transport and a gateway host session, opened and closed together. */

import { randomUUID } from 'node:crypto';

import type { GatewayHandle, HostChannel, HostSession } from '../../ports/host-contracts.js';
import type { Logger } from '../../core/log.js';
import { RpcCode } from '../../protocol/errors.js';
import { errorResponse as jsonRpcError } from '../../protocol/jsonrpc.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { DEFAULT_HEADER_REVISION, LEGACY_REVISIONS } from '../../protocol/revisions.js';
import type { Principal } from '../../access/principal.js';
import { SessionOwner } from './host-identity.js';
import { IdleClock } from './idle-clock.js';
import { SessionTransport } from './session-transport.js';
import type { InboundMessage } from './session-transport.js';

export interface HttpSessionOptions {
  gateway: GatewayHandle;
  logger: Logger;
  /** Closes the session this long after its last use (a request, a message sent) while not busy; 0 disables. */
  idleTimeoutMs: number;
  /** Events kept per SSE stream for Last-Event-ID resumption. */
  maxEventsPerStream?: number;
  /** Called once the session id is assigned (during the initialize POST, before the gateway sees it). */
  onInitialized(session: HttpSession): void;
  /** Called once when the session ends, whoever ended it. */
  onClosed(session: HttpSession): void;
  /** Called on every use of the session (a request, a message sent). */
  onUsed?(): void;
  /** Makes the session's id (default: a random UUID; on a cluster, one that names this instance). */
  newId?(): string;
  /** Who opened it, when hosts authenticate: only they may use it. */
  principal?: Principal;
}

export class HttpSession {
  /** Who opened it; a request of another principal is refused as if the session did not exist. */
  readonly owner: SessionOwner;
  readonly transport: SessionTransport;
  readonly host: HostSession;
  readonly #options: HttpSessionOptions;
  #id: string | undefined;
  #closed = false;
  readonly #idle: IdleClock;

  /** Opens the gateway host session; throws what `gateway.openSession` throws. */
  constructor(options: HttpSessionOptions) {
    this.#options = options;
    this.owner = new SessionOwner(options.principal);
    this.#idle = new IdleClock({
      timeoutMs: options.idleTimeoutMs,
      busy: () => this.busy,
      onIdle: () => void this.close('idle timeout', { closeHost: true }),
      ...(options.onUsed ? { onUse: options.onUsed } : {}),
    });
    this.transport = new SessionTransport({
      maxEventsPerStream: options.maxEventsPerStream ?? 1000,
      knownRevisions: LEGACY_REVISIONS,
      onMessage: (message) => this.#receive(message),
      onUndeliverable: (message, why) =>
        options.logger.log('warn', 'could not deliver a message to the host', { session: this.#id, why, id: 'id' in message ? message.id : undefined }),
    });
    // Sends are synchronous and go out in the order the gateway makes them: no queue is needed.
    const channel: HostChannel = {
      send: (message, relatedRequestId) => {
        this.#idle.touch();
        this.transport.send(message, relatedRequestId);
      },
      canReachOutsideCalls: () => this.hasStandaloneStream,
      onSessionClosed: () => void this.close('closed by the gateway', { closeHost: false }),
      transport: 'streamable-http',
      ...(options.principal ? { principal: options.principal } : {}),
    };
    this.host = options.gateway.openSession(channel);
  }

  /** The `Mcp-Session-Id`, once the initialize POST assigned it. */
  get id(): string | undefined {
    return this.#id;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** A call in flight or the GET stream open: the session is not idle (item 16 of issue 11). */
  get busy(): boolean {
    return !this.#closed && this.transport.busy;
  }

  /** Whether the host holds the standalone (GET) stream open, so that a message outside its calls can reach it. */
  get hasStandaloneStream(): boolean {
    return this.transport.hasStandaloneStream;
  }

  /** The initialize POST (already checked by the edge): assigns the session id, then answers on an SSE stream. */
  initialize(request: JsonRpcRequest): Response {
    this.#id = this.#options.newId?.() ?? randomUUID();
    this.transport.sessionId = this.#id;
    this.#options.onInitialized(this);
    const requested = request.params?.protocolVersion;
    return this.transport.post({ kind: 'request', message: request }, typeof requested === 'string' ? requested : undefined);
  }

  /** A later POST (already checked by the edge); `protocolVersion` is its MCP-Protocol-Version header, if any. */
  post(inbound: InboundMessage, protocolVersion: string | null): Response {
    return this.transport.post(inbound, protocolVersion ?? DEFAULT_HEADER_REVISION);
  }

  /** A 2025-03-26 batch (already checked by the edge). */
  postBatch(inbounds: readonly InboundMessage[], protocolVersion: string | null): Response {
    return this.transport.postBatch(inbounds, protocolVersion ?? DEFAULT_HEADER_REVISION);
  }

  /** GET: the standalone stream, or with `Last-Event-ID` a resumed one. */
  get(lastEventId: string | null): Response {
    return this.transport.get(lastEventId);
  }

  /** DELETE: the host ends the session. */
  async delete(): Promise<Response> {
    await this.close('deleted by the host', { closeHost: true });
    return new Response(null, { status: 200 });
  }

  /** Restarts the idle clock (called for every request on the session). */
  touch(): void {
    if (!this.#closed) this.#idle.touch();
  }

  /** Ends the transport (its streams end) and, unless the gateway ended it, the host session. Idempotent. */
  async close(reason: string, { closeHost }: { closeHost: boolean }): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#idle.stop();
    this.#options.onClosed(this);
    this.#options.logger.log('info', 'host session closed', { session: this.#id, reason });
    this.transport.close();
    if (closeHost) await this.host.close().catch((error: unknown) => this.#warn('closing the host session failed', error));
  }

  #receive(message: JsonRpcMessage): void {
    // A host's answer was handed to the host session (and its verdict reported) before the POST was taken.
    if (!('method' in message)) return;
    try {
      this.host.receive(message);
    } catch (error) {
      this.#warn('the gateway failed to take a message', error);
      if ('method' in message && 'id' in message) {
        this.transport.send(jsonRpcError(message.id, { code: RpcCode.InternalError, message: 'Internal error' }), message.id);
      }
    }
  }

  #warn(what: string, error: unknown): void {
    this.#options.logger.log('warn', what, { session: this.#id, error: error instanceof Error ? error.message : String(error) });
  }
}
