/**
 * @module The subscriptions/listen streams of 2026-07-28 hosts: each fed by its request's stand-in, as its acknowledged filter admits, ended with a result when the stand-in or the gateway closes.
 */

import type { Logger } from '../../core/log.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcId, JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { errorResponse, resultResponse } from '../../protocol/jsonrpc.js';
import { invalidParamsError } from '../../protocol/modern-errors.js';
import type { SubscriptionFilter } from '../../protocol/subscriptions.js';
import { acknowledgedFilter, filterAdmits, listenEndResult, listenOfferOf, onListenStream, parseListenParams, subscriptionsAcknowledged } from '../../protocol/subscriptions.js';
import type { ModernExchange, ModernRequestContext, ModernSink } from '../../ports/host-contracts.js';
import { StandIn } from './stand-in.js';

export interface ListenStreamsOptions {
  serverCapabilities(): JsonObject;
  /** The stand-in a listen request is fed by, or the refusal when none can be opened. */
  standIn(context: ModernRequestContext): StandIn | JsonRpcErrorObject;
  /** A stand-in was used (a stream of it ended). */
  used(standIn: StandIn): void;
  logger: Logger;
}

interface Listener {
  id: JsonRpcId;
  filter: SubscriptionFilter;
  sink: ModernSink;
  standIn: StandIn;
}

export class ListenStreams {
  #options: ListenStreamsOptions;
  #listeners = new Set<Listener>();

  constructor(options: ListenStreamsOptions) {
    this.#options = options;
  }

  /** A subscriptions/listen request: acknowledged at once, then fed until cancelled. */
  listen(id: JsonRpcId, params: JsonObject, context: ModernRequestContext, sink: ModernSink): ModernExchange {
    const parsed = parseListenParams(params);
    if (!parsed.ok) return refused(sink, id, invalidParamsError('notifications', `Invalid params: ${parsed.reason}`));
    const filter = acknowledgedFilter(parsed.filter, listenOfferOf(this.#options.serverCapabilities()));
    const standIn = this.#options.standIn(context);
    if (!(standIn instanceof StandIn)) return refused(sink, id, standIn);
    const listener: Listener = { id, filter, sink, standIn };
    standIn.listeners += 1;
    this.#listeners.add(listener);
    sink.notify(subscriptionsAcknowledged(id, filter));
    // Every upstream session of the stand-in is opened, so that their changes reach this stream.
    void standIn.request('tools/list', {});
    for (const uri of filter.resourceSubscriptions ?? []) {
      void standIn.request('resources/subscribe', { uri }).then((response) => {
        if ('error' in response) this.#options.logger.log('info', `listen: cannot subscribe to ${uri}: ${response.error.message}`);
      });
    }
    return {
      cancel: () => {
        if (!this.#listeners.delete(listener)) return;
        standIn.listeners -= 1;
        this.#options.used(standIn);
      },
    };
  }

  /** A notification outside any call of a stand-in: to the listen streams fed by that stand-in, as their filters admit. */
  broadcast(standIn: StandIn, message: JsonRpcNotification): void {
    for (const listener of this.#listeners) {
      if (listener.standIn === standIn && filterAdmits(listener.filter, message)) listener.sink.notify(onListenStream(message, listener.id));
    }
  }

  /** A stand-in closed: the streams it fed end with a result. */
  endFor(standIn: StandIn): void {
    for (const listener of this.#listeners) {
      if (listener.standIn !== standIn) continue;
      this.#listeners.delete(listener);
      listener.sink.respond(resultResponse(listener.id, listenEndResult(listener.id)));
    }
  }

  /** The gateway closes: every stream ends with a result. */
  close(): void {
    for (const listener of this.#listeners) listener.sink.respond(resultResponse(listener.id, listenEndResult(listener.id)));
    this.#listeners.clear();
  }
}

function refused(sink: ModernSink, id: JsonRpcId, error: JsonRpcErrorObject): ModernExchange {
  sink.respond(errorResponse(id, error));
  return { cancel: () => undefined };
}
