/**
 * @module The call registry, the one owner of every host call in flight: keyed by host session and host request
 * id, with the stream it travels on, the upstream session and id it is bound to, its tool and its abort
 * controller; and which host owns each per-session upstream session. A call ends one way: `end`.
 */

import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import type { JsonObject, JsonRpcId } from '../protocol/jsonrpc.js';

/** What the registry needs of a host session: its id (the key), and whether it is closed. */
export interface CallHost {
  readonly id: string;
  readonly closed: boolean;
}

/** A call the host's request was forwarded as (one at a time), or a composite the gateway runs itself. */
export type CallKind = 'forwarded' | 'composite';

/** For tools/call: the tool as the host names it, and as its upstream does. */
export interface CallTool {
  host: string;
  upstream: string;
  /** The arguments as the host sent them (redacted before anyone is shown them: protocol/redact-arguments.ts). */
  arguments?: JsonObject;
}

/** One host call in flight. */
export interface Call<H extends CallHost = CallHost, U extends object = object> {
  readonly host: H;
  readonly requestId: JsonRpcId;
  /** The host request whose stream carries what the call sends back (a composite step's: the composite's). */
  readonly streamId: JsonRpcId;
  readonly kind: CallKind;
  readonly tool: CallTool | undefined;
  /** Aborted when the call is stopped (host cancel, composite step stop, session close). */
  readonly abort: AbortController;
  /** The upstream session and our id there, once the request is sent (a retry binds the new id). */
  readonly upstream: U | undefined;
  readonly upstreamId: number | undefined;
  /** Clock time the current upstream request was sent (undefined until bound). */
  readonly startedAt: number | undefined;
}

export interface OpenCall<H extends CallHost> {
  host: H;
  requestId: JsonRpcId;
  /** Default: the request's own stream. */
  streamId?: JsonRpcId;
  /** Default: forwarded. */
  kind?: CallKind;
  tool?: CallTool;
  /** Default: a fresh controller. */
  abort?: AbortController;
}

/** Why a call ends. */
export type CallEnd = 'finished' | 'host-cancelled' | 'step-stopped' | 'session-closed';

/**
 * What each end does: whether the call is aborted, whether the upstream must be told (when the call is bound to
 * one), and whether the questions the call asked are settled with it (a closing session voids all of its own).
 */
const ENDS: Record<CallEnd, { abort: boolean; tellUpstream: boolean; settleQuestions: boolean }> = {
  finished: { abort: false, tellUpstream: false, settleQuestions: false },
  'host-cancelled': { abort: true, tellUpstream: true, settleQuestions: true },
  'step-stopped': { abort: true, tellUpstream: true, settleQuestions: true },
  'session-closed': { abort: true, tellUpstream: true, settleQuestions: false },
};

/** A call that ended, and what its owner still has to do. */
export interface EndedCall<H extends CallHost, U extends object> {
  call: Call<H, U>;
  /** The upstream must be told (cancel `call.upstreamId` on `call.upstream`). */
  tellUpstream: boolean;
  /** The questions the call asked are void (settle them as cancelled with the call). */
  settleQuestions: boolean;
}

type Entry<H extends CallHost, U extends object> = { -readonly [K in keyof Call<H, U>]: Call<H, U>[K] };

export class CallRegistry<H extends CallHost, U extends object> {
  #clock: Clock;
  /** By host session id, then host request id (a Map tells 1 from '1'). */
  #byHost = new Map<string, Map<JsonRpcId, Entry<H, U>>>();
  /** By upstream session, then our id there, in the order the requests were sent. */
  #byUpstream = new Map<U, Map<number, Entry<H, U>>>();
  /** Which host session owns a per-session upstream session. */
  #owners = new WeakMap<U, H>();

  constructor(clock: Clock = systemClock) {
    this.#clock = clock;
  }

  /** Registers a host call (a call under the same key is replaced: only the newest can be found). */
  open(input: OpenCall<H>): Call<H, U> {
    const entry: Entry<H, U> = {
      host: input.host,
      requestId: input.requestId,
      streamId: input.streamId ?? input.requestId,
      kind: input.kind ?? 'forwarded',
      tool: input.tool,
      abort: input.abort ?? new AbortController(),
      upstream: undefined,
      upstreamId: undefined,
      startedAt: undefined,
    };
    let calls = this.#byHost.get(input.host.id);
    if (!calls) this.#byHost.set(input.host.id, (calls = new Map()));
    const previous = calls.get(input.requestId);
    if (previous) this.#unbind(previous);
    calls.set(input.requestId, entry);
    return entry;
  }

  /** The call's request went to `upstream` as `upstreamId` (again, for a retry). False when the call already ended. */
  bind(call: Call<H, U>, upstream: U, upstreamId: number): boolean {
    const entry = this.#live(call);
    if (!entry) return false;
    this.#unbind(entry);
    entry.upstream = upstream;
    entry.upstreamId = upstreamId;
    entry.startedAt = this.#clock.now();
    let calls = this.#byUpstream.get(upstream);
    if (!calls) this.#byUpstream.set(upstream, (calls = new Map()));
    calls.set(upstreamId, entry);
    return true;
  }

  /** The call a host session has in flight under `requestId`. */
  get(host: CallHost, requestId: JsonRpcId): Call<H, U> | undefined {
    return this.#byHost.get(host.id)?.get(requestId);
  }

  /** The call bound to `upstreamId` on `upstream` (with `host`: only a call of that host session). */
  find(upstream: object, upstreamId: unknown, host?: CallHost): Call<H, U> | undefined {
    const call = typeof upstreamId === 'number' ? this.#byUpstream.get(upstream as U)?.get(upstreamId) : undefined;
    return host === undefined || call?.host.id === host.id ? call : undefined;
  }

  /** The calls in flight on an upstream session, oldest request first. */
  onUpstream(upstream: object): Call<H, U>[] {
    return [...(this.#byUpstream.get(upstream as U)?.values() ?? [])];
  }

  /** How many host calls are in flight, every host's. */
  get size(): number {
    let size = 0;
    for (const calls of this.#byHost.values()) size += calls.size;
    return size;
  }

  /** The calls a host session has in flight, in the order they were opened. */
  ofHost(host: CallHost): Call<H, U>[] {
    return [...(this.#byHost.get(host.id)?.values() ?? [])];
  }

  /**
   * Ends a call: it is removed (and aborted, unless it finished), and the answer says what is left to do.
   * Undefined when it had already ended.
   */
  end(call: Call<H, U>, why: CallEnd, reason?: string): EndedCall<H, U> | undefined {
    const entry = this.#live(call);
    if (!entry) return undefined;
    const calls = this.#byHost.get(entry.host.id);
    calls?.delete(entry.requestId);
    if (calls?.size === 0) this.#byHost.delete(entry.host.id);
    this.#unbind(entry);
    const rule = ENDS[why];
    if (rule.abort) entry.abort.abort(reason);
    return { call: entry, tellUpstream: rule.tellUpstream && entry.upstream !== undefined, settleQuestions: rule.settleQuestions };
  }

  /** `host` owns the per-session upstream session `upstream` (its every call is that host's). */
  adopt(upstream: U, host: H): void {
    this.#owners.set(upstream, host);
  }

  ownerOf(upstream: U): H | undefined {
    return this.#owners.get(upstream);
  }

  #live(call: Call<H, U>): Entry<H, U> | undefined {
    const entry = this.#byHost.get(call.host.id)?.get(call.requestId);
    return entry === call ? entry : undefined;
  }

  #unbind(entry: Entry<H, U>): void {
    if (entry.upstream === undefined || entry.upstreamId === undefined) return;
    const calls = this.#byUpstream.get(entry.upstream);
    if (calls?.get(entry.upstreamId) === entry) calls.delete(entry.upstreamId);
    if (calls?.size === 0) this.#byUpstream.delete(entry.upstream);
  }
}
