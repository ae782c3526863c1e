/**
 * @module The session of one 2026-07-28 principal and envelope: its RoutedSession, reached through this HostPort
 * (each question joins the round of the call it belongs to), the calls it has in flight or parked, and its listen
 * streams; reused across the principal's requests, so upstream sessions are pooled per principal (design 009).
 */

import type { Principal } from '../../access/principal.js';
import type { IdSource } from '../../core/clock.js';
import { createHash } from 'node:crypto';

import { canonicalJson } from '../../protocol/canonical-json.js';
import { RpcCode } from '../../protocol/errors.js';
import { GatewayError } from '../../protocol/gateway-errors.js';
import { requiredCapabilities } from '../../protocol/input-capabilities.js';
import type { InputRequest } from '../../protocol/input-required.js';
import { isInputRequestMethod } from '../../protocol/input-required.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcId, JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { missingCapabilityError } from '../../protocol/modern-errors.js';
import type { RequestEnvelope } from '../../protocol/request-envelope.js';
import { LATEST_LEGACY_REVISION } from '../../protocol/revisions.js';
import type { ModernRequestContext } from '../../ports/host-contracts.js';
import type { HostPort, HostProfile, HostQuestion, QuestionDelivery, UpstreamRound } from '../../ports/host-port.js';
import type { RoutedSession } from '../../router/routed-session.js';
import { LIST_KIND_OF } from '../../router/routed-session.js';
import type { ModernCall } from './modern-call.js';

/** The key of the session a request is served by: who sent it and everything its envelope fixes for an upstream session. */
export function standInKey(context: ModernRequestContext): string {
  const { envelope } = context;
  // Groups and scopes are part of the key: a token that grants other ones is served by a session that decides by them.
  const grants = context.identity ? [[...context.identity.groups].sort(), [...context.identity.scopes].sort()] : null;
  const material = canonicalJson([context.principal, grants, envelope.clientCapabilities, envelope.clientInfo ?? null, envelope.logLevel ?? null]);
  return createHash('sha256').update(material).digest('base64url');
}

/** A fresh id the router knows a call by (never a host's own id: hosts may reuse theirs), counted by `ids`. */
export function internalRequestId(ids: IdSource): string {
  return `m-${ids.next('stand-in-request')}`;
}

const ROUTED = new Set(['tools/call', 'prompts/get', 'resources/read', 'completion/complete']);

export interface PrincipalSessionOptions {
  key: string;
  principal: string;
  /** The verified identity behind `principal`, when hosts authenticate. */
  identity?: Principal;
  envelope: RequestEnvelope;
  /** Opens the routed session behind this one, reached through `port` (the gateway counts and registers it). */
  open(port: HostPort): RoutedSession;
  /** A 2026-07-28 upstream's round, taken as it is with its state wrapped (wrapped-rounds.ts). */
  takeRound(principal: string, round: UpstreamRound): Promise<JsonObject | undefined>;
  /** A notification outside any call (list changes, resource updates): for the listen streams. */
  onBroadcast(session: PrincipalSession, message: JsonRpcNotification): void;
  /** What time it is (idle times). */
  now(): number;
  /** Numbers the gateway's own requests on this session (shared by the sessions of one gateway). */
  ids: IdSource;
}

export class PrincipalSession implements HostPort {
  readonly key: string;
  readonly principal: string;
  readonly delivery: QuestionDelivery = 'input_required';
  readonly routed: RoutedSession;
  /** Calls in flight or parked, by internal id. */
  readonly calls = new Map<string, ModernCall>();
  /** Listen streams fed by this session's upstream sessions. */
  listeners = 0;
  lastUsed: number;
  /** The gateway's own requests in flight on this session (opening upstream sessions for a listen stream). */
  #pending = 0;
  #options: PrincipalSessionOptions;

  constructor(options: PrincipalSessionOptions) {
    this.key = options.key;
    this.principal = options.principal;
    this.#options = options;
    this.lastUsed = options.now();
    this.routed = options.open(this);
    const { envelope } = options;
    this.routed.open(
      {
        // Questions are planned, and legacy upstreams initialized, as for the newest sessionful revision, which 2026-07-28 extends.
        protocolVersion: LATEST_LEGACY_REVISION,
        capabilities: envelope.clientCapabilities,
        clientInfo: envelope.clientInfo ? { ...envelope.clientInfo } : { name: 'unknown-host', version: '0' },
        ...(options.identity ? { principal: options.identity } : {}),
      },
      envelope.logLevel,
    );
  }

  get id(): string {
    return this.routed.id;
  }

  get closed(): boolean {
    return this.routed.closed;
  }

  get idle(): boolean {
    return this.calls.size === 0 && this.listeners === 0 && this.#pending === 0;
  }

  /** One request of the host (a list, or a call routed under `internalId`); resolves with its result. */
  run(method: string, params: JsonObject, internalId: string): Promise<JsonObject> {
    const kind = LIST_KIND_OF[method];
    if (kind) return this.routed.list(kind, params);
    if (ROUTED.has(method)) return this.routed.route({ jsonrpc: '2.0', id: internalId, method, params }).then((result) => result ?? {});
    return Promise.reject(new GatewayError('GW_ERR_METHOD_NOT_FOUND', `Method not found: ${method}`));
  }

  /** Opens every upstream session of this principal (by listing its tools), so that their changes reach its listen streams. */
  warm(): Promise<unknown> {
    return this.#ownRequest((routed) => routed.list('tools', {}));
  }

  /** Subscribes to `uri` for a listen stream (its updates then reach the stream); rejects with the refusal. */
  subscribe(uri: string): Promise<unknown> {
    return this.#ownRequest((routed) => routed.subscribe({ jsonrpc: '2.0', id: internalRequestId(this.#options.ids), method: 'resources/subscribe', params: { uri } }));
  }

  /** A request of the gateway's own on this session: while it runs, the session is not idle. */
  async #ownRequest<T>(work: (routed: RoutedSession) => Promise<T>): Promise<T> {
    this.#pending += 1;
    try {
      return await work(this.routed);
    } finally {
      this.#pending -= 1;
    }
  }

  // ---- HostPort ---------------------------------------------------------------------------------------

  profile(): HostProfile | undefined {
    return this.routed.profile;
  }

  ask(question: HostQuestion, call: JsonRpcId | undefined): JsonRpcErrorObject | undefined {
    const target = typeof call === 'string' ? this.calls.get(call) : undefined;
    if (target?.asks) {
      target.onQuestion(question);
      return undefined;
    }
    // Only tools/call, prompts/get and resources/read can carry questions to a 2026-07-28 host.
    return { code: RpcCode.InternalError, message: `A 2026-07-28 host cannot be asked ${question.method} outside tools/call, prompts/get or resources/read` };
  }

  withdraw(key: string, _reason: string | undefined, call: JsonRpcId | undefined): void {
    if (typeof call === 'string') this.calls.get(call)?.onQuestionWithdrawn(key);
  }

  notify(message: JsonRpcNotification, call?: JsonRpcId): void {
    if (call === undefined) {
      this.#options.onBroadcast(this, message);
      return;
    }
    const target = typeof call === 'string' ? this.calls.get(call) : undefined;
    if (!target) return;
    if (message.method === 'notifications/cancelled') target.onQuestionWithdrawn(message.params?.requestId);
    else target.onNotification(message);
  }

  /** A 2026-07-28 host has no stream outside its requests: what no call explains goes to an operator, or is refused. */
  reachableOutsideCalls(): boolean {
    return false;
  }

  lacks(call: JsonRpcId, method: string, params: JsonObject): void {
    const target = typeof call === 'string' ? this.calls.get(call) : undefined;
    if (!target || !isInputRequestMethod(method)) return;
    const request: InputRequest = { method, params };
    target.fail(
      missingCapabilityError(requiredCapabilities(request), `The call needs ${method}, which the request did not declare in its client capabilities`),
      `the host cannot answer ${method}`,
    );
  }

  takeRound(round: UpstreamRound): Promise<JsonObject | undefined> {
    return this.#options.takeRound(this.principal, round);
  }
}
