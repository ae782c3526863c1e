/**
 * @module Attribution: which host call an upstream's question (or log line) belongs to, read from the call
 * registry alone, and which calls stop their clocks while the host answers. Keeps the burst memory.
 */

import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { Call, CallHost, CallRegistry } from './calls.js';

/** Questions of one upstream session this close together are taken as one burst from one call. */
export const BURST_MS = 100;

/** What an upstream sent, as far as attribution goes. */
export interface Sent {
  /** The message's `params._meta` (a progress token there names our id of a call). */
  meta: unknown;
  /** The call whose response stream carried it, when the transport can tell. */
  relatedCallId: number | undefined;
}

export interface Attributed<H extends CallHost, U extends object> {
  host: H;
  /** The call it belongs to (none: a per-session upstream's message outside any call). */
  call: Call<H, U> | undefined;
  /** Our ids of the calls whose timeout stops while the host answers. */
  pause: number[];
}

/** The calls of `upstream` that already have a question open, for a host (its question relay knows). */
export type OpenQuestions<H> = (host: H) => ReadonlySet<number>;

export class CallAttribution<H extends CallHost, U extends object> {
  #calls: CallRegistry<H, U>;
  #clock: Clock;
  /** The call each upstream session's latest question went to, and when (for questions sent in a burst). */
  #lastAsked = new WeakMap<U, { callId: number; at: number }>();

  constructor(calls: CallRegistry<H, U>, clock: Clock = systemClock) {
    this.#calls = calls;
    this.#clock = clock;
  }

  /** Attributes an upstream's question, and remembers where it went (the next question of a burst follows it). */
  question(upstream: U, sent: Sent, openQuestions: OpenQuestions<H>): Attributed<H, U> | undefined {
    const target = this.#attribute(upstream, sent, openQuestions);
    const callId = target?.call?.upstreamId;
    if (callId !== undefined) this.#lastAsked.set(upstream, { callId, at: this.#clock.now() });
    return target;
  }

  /** Attributes an upstream's notification (a log line): the same rules, nothing remembered. */
  notification(upstream: U, sent: Sent, openQuestions: OpenQuestions<H>): Attributed<H, U> | undefined {
    return this.#attribute(upstream, sent, openQuestions);
  }

  /**
   * Certain when the transport saw it on that call's response stream (on the stream of a request of the gateway's
   * own, it is no call's), when its progress token names the call, or when only one call is in flight. Otherwise, for a per-session upstream (whose every call is its owner's), the
   * burst rule or the oldest call without an open question is taken, and every call in flight is paused while the
   * host answers. A shared upstream's ambiguous message has no host.
   */
  #attribute(upstream: U, sent: Sent, openQuestions: OpenQuestions<H>): Attributed<H, U> | undefined {
    const calls = this.#calls.onUpstream(upstream);
    const token = isObject(sent.meta) ? sent.meta.progressToken : undefined;
    let call = sent.relatedCallId === undefined ? undefined : this.#calls.find(upstream, sent.relatedCallId);
    if (!call && token !== undefined) call = this.#calls.find(upstream, token);
    const owner = this.#calls.ownerOf(upstream);
    if (!call && sent.relatedCallId !== undefined) {
      // It came on the stream of a request of the gateway's own (a list, logging/setLevel): no host call's, its owner's if any.
      return owner && !owner.closed ? { host: owner, call: undefined, pause: [sent.relatedCallId] } : undefined;
    }
    if (!call && calls.length === 1) call = calls[0];
    if (call) {
      const host = owner ?? call.host;
      return host.closed ? undefined : { host, call, pause: idsOf([call]) };
    }
    if (!owner || owner.closed) return undefined;
    const asking = openQuestions(owner);
    const fresh = (c: Call<H, U>) => c.upstreamId !== undefined && !asking.has(c.upstreamId);
    // Questions an upstream sends together belong together: within a burst, the call the previous one went to,
    // unless a call that has asked nothing started since (then the question is more likely that call's first).
    const last = this.#lastAsked.get(upstream);
    let burst: Call<H, U> | undefined;
    if (last !== undefined && this.#clock.now() - last.at < BURST_MS) {
      burst = calls.find((c) => fresh(c) && (c.startedAt ?? -Infinity) >= last.at) ?? calls.find((c) => c.upstreamId === last.callId);
    }
    const guess = burst ?? calls.find(fresh) ?? calls[0];
    return { host: owner, call: guess, pause: idsOf(calls) };
  }
}

function idsOf<H extends CallHost, U extends object>(calls: Call<H, U>[]): number[] {
  const ids: number[] = [];
  for (const call of calls) if (call.upstreamId !== undefined) ids.push(call.upstreamId);
  return ids;
}
