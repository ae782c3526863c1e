/**
 * @module The server side of one 2025-era sessionful Streamable HTTP session: an SSE stream per POSTed
 * request, the standalone GET stream, event ids and Last-Event-ID resumption. Takes messages the edge
 * has already validated and classified; it checks nothing again.
 */

import type { Classified, JsonRpcId, JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { revisionAtLeast } from '../../protocol/revisions.js';
import { MemoryEventStore } from './memory-event-store.js';
import type { EventId, StreamId } from './memory-event-store.js';
import { SseConnection } from './sse-connection.js';
import { sseEvent, sseJsonEvent, startSseKeepAlive } from './sse-frame.js';
import { errorResponse } from './status.js';

/** Default period of the `: keepalive` comment sent on every open stream, so that idle connections survive proxies. */
export const KEEP_ALIVE_MS = 15_000;

/** The standalone (GET) stream's id in the event store; POST streams are numbered from 1. */
const STANDALONE: StreamId = 'get';

/** Revision from which a POST stream starts with a priming event (an id and empty data). */
const PRIMING_FROM = '2025-11-25';

export interface SessionTransportOptions {
  /** Events kept per stream for Last-Event-ID resumption. */
  maxEventsPerStream: number;
  /** Period of the keep-alive comment on open streams; default KEEP_ALIVE_MS, 0 disables. */
  keepAliveMs?: number;
  /** Revisions the edge accepts; a request declaring another one gets no priming event. */
  knownRevisions: readonly string[];
  /** Hands one inbound message (already checked by the edge) to the gateway. */
  onMessage(message: JsonRpcMessage): void;
  /** A message that has nowhere to go (a response whose request stream is gone); the owner logs it. */
  onUndeliverable(message: JsonRpcMessage, why: string): void;
}

/** A message the edge has classified and found valid. */
export type InboundMessage = Exclude<Classified, { kind: 'invalid' }>;

/** A POST's stream, from the POST until the response to its request has been sent. */
interface RequestStream {
  readonly id: StreamId;
  /** The host's live connection; undefined after it dropped (events are still stored for resumption). */
  connection: SseConnection | undefined;
  /** Requests of this POST still waiting for their response (more than one for a 2025-03-26 batch). */
  unanswered: number;
}

const messageEvent = (eventId: EventId, message: JsonRpcMessage): string => sseJsonEvent(message, { event: 'message', id: eventId });

export class SessionTransport {
  /** Set by the owner when the initialize POST assigns it; sent as `Mcp-Session-Id` on every stream. */
  sessionId: string | undefined;
  readonly #options: SessionTransportOptions;
  readonly #store: MemoryEventStore;
  /** Host request id → the stream that will carry its response (undefined while none waits: an idle session holds no table). */
  #requests: Map<JsonRpcId, RequestStream> | undefined;
  /** Every live connection (for keep-alive and close; undefined while none is open). */
  #connections: Set<SseConnection> | undefined;
  #standalone: SseConnection | undefined;
  #nextStream = 1;
  /** Stops the keep-alive timer; set while a connection is open. */
  #stopKeepAlive: (() => void) | undefined;
  #closed = false;

  constructor(options: SessionTransportOptions) {
    this.#options = options;
    this.#store = new MemoryEventStore({ maxEventsPerStream: options.maxEventsPerStream });
  }

  /** Whether the host holds the standalone stream open (a fresh GET or a resumed one). */
  get hasStandaloneStream(): boolean {
    return this.#standalone !== undefined;
  }

  /** Whether a request of the host is still waiting for its response, or the standalone stream is open: then the session is not idle. */
  get busy(): boolean {
    return this.#requests !== undefined || this.#standalone !== undefined;
  }

  /** Whether a request of the host is still waiting for its response (the standalone stream aside). */
  get answering(): boolean {
    return this.#requests !== undefined;
  }

  /** Whether a request of this id was posted and is not answered yet (a host must not reuse its id until then). */
  isInFlight(id: JsonRpcId): boolean {
    return this.#requests?.has(id) === true;
  }

  /**
   * A POSTed request gets `200 text/event-stream` at once and its stream stays open until its
   * response is sent; a notification or a response gets `202`. `protocolVersion` is the revision
   * the POST declares (initialize: params.protocolVersion, else the header): from 2025-11-25 the
   * stream starts with a priming event.
   */
  post(inbound: InboundMessage, protocolVersion: string | undefined): Response {
    return this.postBatch([inbound], protocolVersion);
  }

  /**
   * A POST of several messages (a 2025-03-26 batch; the edge checked that the session may send one):
   * one stream carries the responses of all its requests and ends after the last; a batch of only
   * notifications and responses gets `202`.
   */
  postBatch(inbounds: readonly InboundMessage[], protocolVersion: string | undefined): Response {
    const requests = inbounds.flatMap((inbound) => (inbound.kind === 'request' ? [inbound.message] : []));
    if (requests.length === 0) {
      for (const inbound of inbounds) this.#options.onMessage(inbound.message);
      return new Response(null, { status: 202 });
    }
    const stream: RequestStream = { id: String(this.#nextStream++), connection: undefined, unanswered: requests.length };
    const connection = this.#connect(() => {
      if (stream.connection === connection) stream.connection = undefined;
    });
    stream.connection = connection;
    for (const message of requests) {
      // The edge refuses an id still in flight (isInFlight), so each id names one stream.
      (this.#requests ??= new Map()).set(message.id, stream);
    }
    if (protocolVersion !== undefined && this.#primes(protocolVersion)) {
      connection.write(sseEvent({ id: this.#store.storeEvent(stream.id, {}), data: '' }));
    }
    const response = this.#sseResponse(connection);
    for (const inbound of inbounds) this.#options.onMessage(inbound.message);
    return response;
  }

  /** GET: the standalone stream (one at a time), or with `Last-Event-ID` the resumption of any stream. */
  get(lastEventId: string | null): Response {
    if (lastEventId) return this.#resume(lastEventId);
    if (this.#standalone !== undefined) {
      return errorResponse('STREAM_CONFLICT', 'Conflict: only one SSE stream is allowed per session');
    }
    const connection = this.#connect(() => {
      if (this.#standalone === connection) this.#standalone = undefined;
    });
    this.#standalone = connection;
    return this.#sseResponse(connection);
  }

  /**
   * Sends one message to the host: on the stream of the request it relates to (a response on its
   * own request's stream, which then ends), otherwise on the standalone stream. Every event is
   * stored, so a dropped connection can be resumed. A response with no request stream is dropped.
   */
  send(message: JsonRpcMessage, relatedRequestId?: JsonRpcId): void {
    if (this.#closed) return;
    const isResponse = !('method' in message);
    const requestId = isResponse ? message.id : relatedRequestId;
    const stream = requestId === undefined || requestId === null ? undefined : this.#requests?.get(requestId);
    if (stream !== undefined) {
      const eventId = this.#store.storeEvent(stream.id, message);
      const connection = stream.connection;
      if (isResponse) {
        this.#requests?.delete(requestId as JsonRpcId);
        if (this.#requests?.size === 0) this.#requests = undefined;
        stream.unanswered -= 1;
      }
      if (connection === undefined) return;
      connection.write(messageEvent(eventId, message));
      if (isResponse && stream.unanswered === 0) this.#disconnect(connection);
      return;
    }
    if (isResponse) {
      this.#options.onUndeliverable(message, `no open request ${JSON.stringify(requestId)} on this session`);
      return;
    }
    const eventId = this.#store.storeEvent(STANDALONE, message);
    this.#standalone?.write(messageEvent(eventId, message));
  }

  /** Ends every open stream; later sends are dropped. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopKeepAlive?.();
    this.#stopKeepAlive = undefined;
    for (const connection of this.#connections ?? []) connection.end();
    this.#connections = undefined;
    this.#requests = undefined;
    this.#standalone = undefined;
  }

  /** Replays what followed `lastEventId` on its stream, then keeps the stream live if it still is. */
  #resume(lastEventId: string): Response {
    const streamId = this.#store.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) {
      return errorResponse('UNKNOWN_EVENT_ID', `Bad Request: Last-Event-ID ${JSON.stringify(lastEventId)} names no stream of this session`);
    }
    const request = streamId === STANDALONE ? undefined : this.#requestStream(streamId);
    const live = streamId === STANDALONE ? this.#standalone : request?.connection;
    if (live !== undefined) {
      return errorResponse('STREAM_CONFLICT', 'Conflict: the stream of this Last-Event-ID is already open');
    }
    const connection = this.#connect(() => {
      if (this.#standalone === connection) this.#standalone = undefined;
      if (request?.connection === connection) request.connection = undefined;
    });
    this.#store.replayEventsAfter(lastEventId, { send: (eventId, message) => connection.write(messageEvent(eventId, message)) });
    if (streamId === STANDALONE) this.#standalone = connection;
    else if (request !== undefined) request.connection = connection;
    else this.#disconnect(connection); // its response was sent: the replay was all there is
    return this.#sseResponse(connection);
  }

  #requestStream(streamId: StreamId): RequestStream | undefined {
    for (const stream of this.#requests?.values() ?? []) if (stream.id === streamId) return stream;
    return undefined;
  }

  #primes(protocolVersion: string): boolean {
    return revisionAtLeast(protocolVersion, PRIMING_FROM) && this.#options.knownRevisions.includes(protocolVersion);
  }

  /** A new connection, counted for keep-alive and close until it ends or the host drops it. */
  #connect(onDropped: () => void): SseConnection {
    const connection: SseConnection = new SseConnection(() => {
      this.#forget(connection);
      onDropped();
    });
    if (this.#closed) {
      connection.end();
      return connection;
    }
    (this.#connections ??= new Set()).add(connection);
    this.#keepAlive();
    return connection;
  }

  /**
   * One timer per session while it has a connection open, stopped when the last one ends: an idle
   * session holds no timer. Armed in a function of its own, so its closure holds no connection.
   */
  #keepAlive(): void {
    this.#stopKeepAlive ??= startSseKeepAlive(() => this.#connections ?? [], { periodMs: this.#options.keepAliveMs ?? KEEP_ALIVE_MS, text: 'keepalive', unref: true });
  }

  #forget(connection: SseConnection): void {
    this.#connections?.delete(connection);
    if ((this.#connections?.size ?? 0) > 0) return;
    this.#connections = undefined;
    this.#stopKeepAlive?.();
    this.#stopKeepAlive = undefined;
  }

  #disconnect(connection: SseConnection): void {
    this.#forget(connection);
    connection.end();
  }

  #sseResponse(connection: SseConnection): Response {
    const headers: Record<string, string> = {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    return new Response(connection.body, { status: 200, headers });
  }
}
