/**
 * @module The fan-out of what upstream sessions send back: each question to the host session it is attributed to,
 * list changes, resource updates, task status, URL-elicitation completions, log lines and cancellations to the
 * host sessions they concern, and an upstream session's end to every host it served.
 */

import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonObject } from '../protocol/jsonrpc.js';
import type { ProtocolError } from '../protocol/errors.js';
import type { Logger } from '../core/log.js';
import type { Attributed } from './attribution.js';
import type { CallAttribution } from './attribution.js';
import type { CallHost, CallRegistry, CallTool } from './calls.js';
import { LIST_CACHE_KEYS } from '../upstream/list-all.js';

/** What the fan-out needs of an upstream session. */
export interface NotifyingUpstream {
  /** Unique per upstream session (URL elicitations are kept under it). */
  readonly key: string;
  readonly spec: { readonly name: string };
  /** The session's cached lists, dropped when the upstream says they changed. */
  readonly listCache: { delete(list: string): unknown };
  respond(id: JsonRpcId, result: JsonObject): void;
  respondError(id: JsonRpcId, error: ProtocolError): void;
}

/** Where an attributed question goes on the host: the call (and its tool), the stream, the calls paused while it waits. */
export interface DeliveredRoute {
  callId: number | undefined;
  callTool: CallTool | undefined;
  relatedRequestId: JsonRpcId | undefined;
  pause: number[];
}

/** What the fan-out needs of a host session. */
export interface NotifiedHost<U> extends CallHost {
  deliverQuestion(upstream: U, request: JsonRpcRequest, route: DeliveredRoute): void;
  /** Our ids of `upstream`'s calls of this host that already have a question open. */
  callsWithOpenQuestions(upstream: U): ReadonlySet<number>;
  /** True when the host had that question of `upstream` and it is withdrawn now. */
  withdrawQuestion(upstream: U, upstreamId: unknown, reason: unknown): boolean;
  /** True when the task is this host's (and the status was sent to it). */
  taskStatus(upstream: U, message: JsonRpcNotification): boolean;
  upstreamClosed(upstream: U, why?: string): void;
  isSubscribed(uri: string): boolean;
  forward(message: JsonRpcNotification, relatedRequestId?: JsonRpcId): void;
  elicitationComplete(message: JsonRpcNotification, relatedRequestId: JsonRpcId | undefined): void;
  listChanged(method: string): void;
}

/** The URL-mode elicitations in flight: which host received each, per upstream session. */
export interface UrlElicitationTargets<H> {
  take(upstreamKey: string, elicitationId: string): { host: H; relatedRequestId?: JsonRpcId | undefined } | undefined;
  dropUpstream(upstreamKey: string): void;
}

/** The gateway's unattributable-question error, on the wire (`GW_ERR_QUESTION_UNATTRIBUTABLE`). */
export type Unattributable = (message: string) => ProtocolError;

export interface UpstreamNotificationsOptions<H extends NotifiedHost<U>, U extends NotifyingUpstream> {
  calls: CallRegistry<H, U>;
  attribution: CallAttribution<H, U>;
  urlElicitations: UrlElicitationTargets<H>;
  /** Every host session open now. */
  hosts: () => Iterable<H>;
  unattributable: Unattributable;
  logger: Logger;
}


export class UpstreamNotifications<H extends NotifiedHost<U>, U extends NotifyingUpstream> {
  #calls: CallRegistry<H, U>;
  #attribution: CallAttribution<H, U>;
  #urlElicitations: UrlElicitationTargets<H>;
  #hosts: () => Iterable<H>;
  #unattributable: Unattributable;
  #logger: Logger;

  constructor(options: UpstreamNotificationsOptions<H, U>) {
    this.#calls = options.calls;
    this.#attribution = options.attribution;
    this.#urlElicitations = options.urlElicitations;
    this.#hosts = options.hosts;
    this.#unattributable = options.unattributable;
    this.#logger = options.logger;
  }

  /** A request of the upstream (elicitation, sampling, roots, ping…): to the host it is attributed to, else refused. */
  request(upstream: U, request: JsonRpcRequest, relatedCallId: number | undefined): void {
    const target = this.#attribution.question(upstream, { meta: request.params?._meta, relatedCallId }, (host) => host.callsWithOpenQuestions(upstream));
    if (!target && request.method === 'ping') {
      upstream.respond(request.id, {}); // a ping no host call explains is the gateway's to answer
      return;
    }
    if (!target) {
      const why = `cannot tell which host session ${request.method} from upstream '${upstream.spec.name}' belongs to`;
      this.#logger.log('warn', why, { inFlight: this.#calls.onUpstream(upstream).length });
      upstream.respondError(request.id, this.#unattributable(`Not deliverable: ${why}`));
      return;
    }
    const call = target.call;
    // The call is at hand: the host's relay need not find it again for its tool (only a call of that host has one for it).
    target.host.deliverQuestion(upstream, request, { callId: call?.upstreamId, callTool: call?.host === target.host ? call.tool : undefined, relatedRequestId: call?.streamId, pause: target.pause });
  }

  /** A notification of the upstream: to the host sessions it concerns, or dropped. */
  notification(upstream: U, message: JsonRpcNotification, relatedCallId: number | undefined): void {
    const params = message.params ?? {};
    const stale = LIST_CACHE_KEYS[message.method];
    if (stale) {
      for (const key of stale) upstream.listCache.delete(key);
      for (const host of this.#hostsOf(upstream)) host.listChanged(message.method);
      return;
    }
    switch (message.method) {
      case 'notifications/subscriptions/acknowledged':
        return; // the gateway's own listen stream to a 2026-07-28 upstream (upstream-session.ts) was accepted
      case 'notifications/resources/updated':
        for (const host of this.#hostsOf(upstream)) {
          if (typeof params.uri === 'string' && host.isSubscribed(params.uri)) host.forward(message);
        }
        return;
      case 'notifications/cancelled':
        for (const host of this.#hostsOf(upstream)) {
          if (host.withdrawQuestion(upstream, params.requestId, params.reason)) return;
        }
        return;
      case 'notifications/tasks/status':
        // Only to the host whose task it is (shared upstreams included), under that host's id for it.
        for (const host of this.#hostsOf(upstream)) {
          if (host.taskStatus(upstream, message)) return;
        }
        this.#logger.log('debug', `dropping ${message.method} from upstream '${upstream.spec.name}': no host session has task ${JSON.stringify(params.taskId)}`);
        return;
      case 'notifications/elicitation/complete': {
        // Only to the host that received that elicitation (shared upstreams included); anyone else must never see it.
        const id = params.elicitationId;
        const target = typeof id === 'string' ? this.#urlElicitations.take(upstream.key, id) : undefined;
        if (target && !target.host.closed) target.host.elicitationComplete(message, target.relatedRequestId);
        else this.#logger.log('debug', `dropping ${message.method} from upstream '${upstream.spec.name}': no host session is waiting for elicitation ${JSON.stringify(id)}`);
        return;
      }
      case 'notifications/message': {
        const target = this.#attribution.notification(upstream, { meta: params._meta, relatedCallId }, (host) => host.callsWithOpenQuestions(upstream));
        if (target) target.host.forward(message, relatedId(target));
        else this.#logger.log('debug', `dropping a log line of shared upstream '${upstream.spec.name}' no host call explains`);
        return;
      }
      default: {
        const owner = this.#calls.ownerOf(upstream);
        if (owner) owner.forward(message);
        else this.#logger.log('debug', `dropping ${message.method} from shared upstream '${upstream.spec.name}'`);
      }
    }
  }

  /** The upstream session ended: its URL elicitations are dropped and every host it served is told. */
  closed(upstream: U, reason: string): void {
    this.#logger.log('info', `upstream session ${upstream.key} ended: ${reason}`);
    this.#urlElicitations.dropUpstream(upstream.key);
    for (const host of this.#hostsOf(upstream)) host.upstreamClosed(upstream, reason);
  }

  /** Host sessions an upstream session serves: its owner, or every host for a shared one. */
  #hostsOf(upstream: U): H[] {
    const owner = this.#calls.ownerOf(upstream);
    if (owner) return owner.closed ? [] : [owner];
    return [...this.#hosts()];
  }
}

/** The host request whose stream carries what belongs to an attributed call. */
function relatedId<H extends CallHost, U extends object>(target: Attributed<H, U>): JsonRpcId | undefined {
  return target.call?.streamId;
}
