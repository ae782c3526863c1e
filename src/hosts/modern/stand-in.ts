/**
 * @module The stand-in host session of 2026-07-28 hosts: one per principal and envelope, reused across
 * their requests, so upstream sessions are pooled per (upstream, principal, capabilities) (design 009).
 */

import type { IdSource } from '../../core/clock.js';
import { createHash } from 'node:crypto';

import { canonicalJson } from '../../protocol/canonical-json.js';
import { RpcCode } from '../../protocol/errors.js';
import type { JsonObject, JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import type { RequestEnvelope } from '../../protocol/request-envelope.js';
import { LATEST_LEGACY_REVISION } from '../../protocol/revisions.js';
import type { HostChannel, ModernRequestContext } from '../../ports/host-contracts.js';
import type { GatewayHostSession } from '../legacy/host-session.js';
import type { ModernCall } from './modern-call.js';

/** The key of the stand-in a request is served by: who sent it and everything its envelope fixes for an upstream session. */
export function standInKey(context: ModernRequestContext): string {
  const { envelope } = context;
  const material = canonicalJson([context.principal, envelope.clientCapabilities, envelope.clientInfo ?? null, envelope.logLevel ?? null]);
  return createHash('sha256').update(material).digest('base64url');
}

export interface StandInOptions {
  key: string;
  principal: string;
  envelope: RequestEnvelope;
  transport: ModernRequestContext['transport'];
  /** Opens the host session behind the stand-in, bound to its channel. */
  open(channel: HostChannel): GatewayHostSession;
  /** A notification outside any call (list changes, resource updates): for the listen streams. */
  onBroadcast(standIn: StandIn, message: JsonRpcNotification): void;
  /** The gateway closed the session under the stand-in. */
  onClosed(standIn: StandIn): void;
  /** What time it is (idle times). */
  now(): number;
  /** Numbers the stand-in's own requests (shared by the stand-ins of one gateway). */
  ids: IdSource;
}

/** A fresh id for a request the stand-in session gets (never a host's own id: hosts may reuse theirs), counted by `ids`. */
export function internalRequestId(ids: IdSource): string {
  return `m-${ids.next('stand-in-request')}`;
}

export class StandIn {
  readonly key: string;
  readonly principal: string;
  readonly session: GatewayHostSession;
  /** Calls in flight or parked, by internal id. */
  readonly calls = new Map<string, ModernCall>();
  /** Listen streams fed by this stand-in's upstream sessions. */
  listeners = 0;
  lastUsed: number;
  #internal = new Map<string, (response: JsonRpcResponse) => void>();
  #options: StandInOptions;

  constructor(options: StandInOptions) {
    this.key = options.key;
    this.principal = options.principal;
    this.#options = options;
    this.lastUsed = options.now();
    const channel: HostChannel = {
      send: (message, related) => this.#route(message, related),
      // A modern host has no stream outside its requests: what no call explains goes to an operator, or is refused.
      canReachOutsideCalls: () => false,
      onSessionClosed: () => options.onClosed(this),
      transport: options.transport,
      questionDelivery: 'input_required',
    };
    this.session = options.open(channel);
    const { envelope } = options;
    this.session.openStateless({
      // Questions and results are shaped as for the newest sessionful revision, which 2026-07-28 extends.
      protocolVersion: LATEST_LEGACY_REVISION,
      capabilities: envelope.clientCapabilities,
      clientInfo: envelope.clientInfo ? { ...envelope.clientInfo } : { name: 'unknown-host', version: '0' },
      ...(envelope.logLevel === undefined ? {} : { logLevel: envelope.logLevel }),
    });
  }

  get idle(): boolean {
    return this.calls.size === 0 && this.listeners === 0 && this.#internal.size === 0;
  }

  /** A request of the gateway's own on this session (subscribing for a listen stream, warming the catalog). */
  request(method: string, params: JsonObject): Promise<JsonRpcResponse> {
    const id = internalRequestId(this.#options.ids);
    return new Promise((resolve) => {
      this.#internal.set(id, resolve);
      this.session.receive({ jsonrpc: '2.0', id, method, params });
    });
  }

  #route(message: JsonRpcMessage, related: JsonRpcId | undefined): void {
    if (!('method' in message)) {
      const id = typeof message.id === 'string' ? message.id : '';
      const own = this.#internal.get(id);
      if (own) {
        this.#internal.delete(id);
        own(message);
        return;
      }
      this.calls.get(id)?.onResponse(message);
      return;
    }
    const call = typeof related === 'string' ? this.calls.get(related) : undefined;
    if ('id' in message) {
      if (call?.asks) {
        call.onQuestion(message);
        return;
      }
      // Only tools/call, prompts/get and resources/read can carry questions to a 2026-07-28 host.
      const error = { code: RpcCode.InternalError, message: `A 2026-07-28 host cannot be asked ${message.method} outside tools/call, prompts/get or resources/read` };
      this.session.receive({ jsonrpc: '2.0', id: message.id, error });
      return;
    }
    if (call) {
      if (message.method === 'notifications/cancelled') call.onQuestionWithdrawn(message.params?.requestId);
      else call.onNotification(message);
      return;
    }
    if (related === undefined) this.#options.onBroadcast(this, message);
  }
}
