/** @module What the edges (HTTP, stdio, CLI) see of the gateway: host sessions over a channel, health and checks. */

import type { Principal } from '../access/principal.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/jsonrpc.js';
import type { HeaderSource } from '../protocol/header-source.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import type { SessionLimits } from './session-limits.js';

/** How the gateway talks to one host session; implemented by each downstream edge. */
export interface HostChannel {
  /**
   * Sends one message to the host. With `relatedRequestId` it belongs on the stream that answers
   * that host request (HTTP: the POST's SSE stream); without, on the session's standalone stream
   * (HTTP: the GET stream; stdio: stdout). A response to a host request must pass its id.
   */
  send(message: JsonRpcMessage, relatedRequestId?: JsonRpcId): void;
  /**
   * Whether a message sent without `relatedRequestId` can reach the host now (HTTP: a GET stream is open).
   * Absent means always (stdio).
   */
  canReachOutsideCalls?(): boolean;
  /** The gateway ended the session (idle timeout, shutdown): the edge forgets it. */
  onSessionClosed?(): void;
  /** Which edge the host came through (for metrics). */
  readonly transport?: 'streamable-http' | 'sse' | 'stdio';
  /** Who the host is, as the edge verified it when the session opened (absent: anonymous, `auth.hosts.type: none`). */
  readonly principal?: Principal;
}

export interface HostSession {
  readonly id: string;
  /** The revision negotiated with the host, once `initialize` has been answered. */
  readonly protocolVersion: string | undefined;
  /**
   * Hands one inbound host message to the gateway, and gives the verdict every edge reports the same way (HTTP 400,
   * a stdio error line). Requests and notifications are taken (`ok`; responses come back through the channel). A
   * host's answer is checked once and its question settled: an `ok` answer relayed to the upstream, an `invalid`
   * one refused to it (-32602 naming the field, the desk records it); `unknown` when no question of this session has
   * that id (nothing changes).
   */
  receive(message: JsonRpcMessage): Verdict;
  /** Ends the session and every upstream session opened for it. */
  close(): Promise<void>;
}

/** What the gateway says of a message a host sent: taken, or refused (an answer to no question of it, or one that breaks its schema). */
export type Verdict = { ok: true } | { ok: false; kind: 'unknown' | 'invalid'; reason: string; field?: string };

export type UpstreamState = 'pending' | 'up' | 'down';

export interface UpstreamReport {
  name: string;
  transport: 'stdio' | 'streamable-http' | 'sse';
  state: UpstreamState;
  /** Why the last attempt failed, when state is 'down'. */
  error?: string;
  /** `legacy` (initialize, sessions) or `modern` (2026-07-28, stateless), as last detected or configured. */
  era?: 'legacy' | 'modern';
  protocolVersion?: string;
  serverInfo?: { name?: string; version?: string };
  capabilities?: Record<string, unknown>;
  counts?: { tools: number; resources: number; resourceTemplates: number; prompts: number };
  /** The upstream's initialize instructions, if it gave any. */
  instructions?: string;
  /** ISO time of the next retry while down. */
  nextRetryAt?: string;
}

export interface HealthReport {
  /** True once every upstream has been tried at least once. */
  ready: boolean;
  upstreams: UpstreamReport[];
}

/** One request of a 2026-07-28 host, as the edge checked it (headers, envelope, version). */
export interface ModernRequestContext {
  /**
   * Who sent it, as far as the edge can tell (design 009: a digest of the Authorization header, else of
   * the client address and clientInfo). Every requestState handle is bound to it.
   */
  principal: string;
  /** The verified identity behind `principal`, when hosts authenticate: the policy decides by it. */
  identity?: Principal;
  /** Whom the per-principal session cap counts its stand-in against (over HTTP the client address); default `principal`. */
  sessionCapKey?: string;
  envelope: RequestEnvelope;
  transport: 'streamable-http' | 'stdio';
  /** The request's HTTP headers (for the `Mcp-Param-*` check of tools/call); absent over stdio. */
  headers?: HeaderSource;
}

/** Where the answer to one modern request goes. */
export interface ModernSink {
  /** A notification about the request (progress, log lines; on a listen stream, list changes and updates). */
  notify(message: JsonRpcNotification): void;
  /** The final response (its id is the host's); called at most once. */
  respond(message: JsonRpcResponse): void;
}

/** A modern request being served. */
export interface ModernExchange {
  /** The host went away (its HTTP stream closed, or notifications/cancelled over stdio): stop upstream, send nothing more. */
  cancel(reason: string): void;
}

export interface GatewayHandle {
  /** Opens a host session bound to a channel. */
  openSession(channel: HostChannel): HostSession;
  /** Serves one request of a 2026-07-28 host, statelessly (no session, no initialize). */
  serveModern(request: JsonRpcRequest, context: ModernRequestContext, sink: ModernSink): ModernExchange;
  /** Looks up a live session by id. */
  session(id: string): HostSession | undefined;
  /** Resolves once every upstream has been tried (successfully or not). */
  readonly ready: Promise<void>;
  /**
   * After `ready`: composite steps naming a tool their upstream does not list (`missing`, each a sentence naming
   * the composite and the step), and those whose upstream is down, so cannot be checked yet (`unchecked`).
   */
  compositeProblems(): { missing: string[]; unchecked: string[] };
  health(): HealthReport;
  /** Host calls in flight now (a parked call of a 2026-07-28 host included): a draining gateway waits for them to end. */
  callsInFlight(): number;
  close(): Promise<void>;
  /** The one count of host sessions and its caps, shared by the HTTP edge and the stand-ins (absent: the edge keeps its own). */
  readonly sessionLimits?: SessionLimits;
}
