/**
 * @module The subscriptions/listen streams of 2026-07-28 hosts: each fed by its request's principal session, as its acknowledged filter admits, ended with a result when that session or the gateway closes.
 */

import type { Logger } from '../../core/log.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcId, JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { errorResponse, resultResponse } from '../../protocol/jsonrpc.js';
import { invalidParamsError } from '../../protocol/modern-errors.js';
import type { SubscriptionFilter } from '../../protocol/subscriptions.js';
import { acknowledgedFilter, filterAdmits, listenEndResult, listenOfferOf, onListenStream, parseListenParams, subscriptionsAcknowledged } from '../../protocol/subscriptions.js';
import type { ModernExchange, ModernRequestContext, ModernSink } from '../../ports/host-contracts.js';
import { PrincipalSession } from './principal-session.js';

export interface ListenStreamsOptions {
  serverCapabilities(): JsonObject;
  /** The session a listen request is fed by, or the refusal when none can be opened. */
  session(context: ModernRequestContext): PrincipalSession | JsonRpcErrorObject;
  /** A session was used (a stream of it ended). */
  used(session: PrincipalSession): void;
  logger: Logger;
}

interface Listener {
  id: JsonRpcId;
  filter: SubscriptionFilter;
  sink: ModernSink;
  session: PrincipalSession;
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
    const session = this.#options.session(context);
    if (!(session instanceof PrincipalSession)) return refused(sink, id, session);
    const listener: Listener = { id, filter, sink, session };
    session.listeners += 1;
    this.#listeners.add(listener);
    sink.notify(subscriptionsAcknowledged(id, filter));
    // Every upstream session of the principal is opened, so that their changes reach this stream.
    void session.warm().catch(() => undefined);
    for (const uri of filter.resourceSubscriptions ?? []) {
      void session.subscribe(uri).catch((error: unknown) => {
        this.#options.logger.log('info', `listen: cannot subscribe to ${uri}: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    return {
      cancel: () => {
        if (!this.#listeners.delete(listener)) return;
        session.listeners -= 1;
        this.#options.used(session);
      },
    };
  }

  /** A notification outside any call of a session: to the listen streams fed by that session, as their filters admit. */
  broadcast(session: PrincipalSession, message: JsonRpcNotification): void {
    for (const listener of this.#listeners) {
      if (listener.session === session && filterAdmits(listener.filter, message)) listener.sink.notify(onListenStream(message, listener.id));
    }
  }

  /** A session closed: the streams it fed end with a result. */
  endFor(session: PrincipalSession): void {
    for (const listener of this.#listeners) {
      if (listener.session !== session) continue;
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
