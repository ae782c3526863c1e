/**
 * @module The HostPort of a legacy (sessionful) host: each question a server-to-client request on the stream of the
 * call it belongs to, a withdrawn one a notifications/cancelled there, notifications once the host said initialized.
 */

import type { JsonRpcErrorObject, JsonRpcId, JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { notification } from '../../protocol/jsonrpc.js';
import { GatewayError } from '../../protocol/gateway-errors.js';
import type { HostChannel } from '../../ports/host-contracts.js';
import type { HostPort, HostProfile, HostQuestion, QuestionDelivery } from '../../ports/host-port.js';

/** What the port reads of the host's session: its id, whether it closed, what the host declared. */
export interface RequestPortSession {
  readonly id: string;
  readonly closed: boolean;
  readonly profile: HostProfile | undefined;
}

export class RequestPort implements HostPort {
  readonly delivery: QuestionDelivery = 'request';
  readonly id: string;
  #session: RequestPortSession;
  #channel: HostChannel;
  /** Whether the host sent notifications/initialized (nothing but responses and questions reach it before). */
  #initialized: { readonly initialized: boolean };

  constructor(session: RequestPortSession, channel: HostChannel, initialized: { readonly initialized: boolean }) {
    this.id = session.id;
    this.#session = session;
    this.#channel = channel;
    this.#initialized = initialized;
  }

  get closed(): boolean {
    return this.#session.closed;
  }

  profile(): HostProfile | undefined {
    return this.#session.profile;
  }

  ask(question: HostQuestion, call: JsonRpcId | undefined): JsonRpcErrorObject | undefined {
    const { key, method, params } = question;
    if (call === undefined && !this.reachableOutsideCalls()) {
      return new GatewayError('GW_ERR_HOST_UNREACHABLE', `Not deliverable: ${method} belongs to no call and the host has no open stream outside its calls`).toProtocolError().toJson();
    }
    this.#channel.send(params === undefined ? { jsonrpc: '2.0', id: key, method } : { jsonrpc: '2.0', id: key, method, params }, call);
    return undefined;
  }

  withdraw(key: string, reason: string | undefined, call: JsonRpcId | undefined): void {
    this.#channel.send(notification('notifications/cancelled', reason === undefined ? { requestId: key } : { requestId: key, reason }), call);
  }

  notify(message: JsonRpcNotification, call?: JsonRpcId): void {
    if (this.#session.closed || !this.#initialized.initialized) return;
    this.#channel.send(message, call);
  }

  reachableOutsideCalls(): boolean {
    return this.#channel.canReachOutsideCalls?.() ?? true;
  }
}
