/**
 * @module The one port through which the router and the question desk reach a host: its profile, a question put to
 * it, a question withdrawn, a notification, and what it lacks. hosts/legacy (requests on the call's stream) and
 * hosts/modern (input_required rounds) implement it; the contract suite in ports/testing/ holds both to it.
 */

import type { JsonObject, JsonRpcErrorObject, JsonRpcId, JsonRpcNotification } from '../protocol/jsonrpc.js';

/** The revision a host's questions are planned for, and the capabilities it declared. */
export interface HostProfile {
  protocolVersion: string;
  capabilities: JsonObject;
}

/** How questions reach a host, as the desk records it: a server-to-client request on its stream, or inside a 2026-07-28 result. */
export type QuestionDelivery = 'request' | 'input_required';

/** A question as the host is asked it: its key there, the method, and its params translated for the host's revision. */
export interface HostQuestion {
  key: string;
  method: string;
  params?: JsonObject;
  /** More questions of the same round may follow right after (a legacy upstream's burst): a host that gathers rounds waits a moment. */
  more?: boolean;
}

/** A 2026-07-28 upstream's `input_required` answer to a host's call, for a host that may take it as a round of its own. */
export interface UpstreamRound {
  upstream: string;
  /** The tool as its upstream names it (tools/call): per-tool settings are keyed by it. */
  tool: string | undefined;
  /** The tool as the host names it (the questions' origin). */
  hostTool: string | undefined;
  method: string;
  /** The params as the host sent them (they bind the handle). */
  hostParams: JsonObject;
  result: JsonObject;
  hostCapabilities: JsonObject;
  hostSessionId: string;
}

export interface HostPort {
  readonly id: string;
  readonly closed: boolean;
  /** How questions reach this host. */
  readonly delivery: QuestionDelivery;
  /** Undefined until the host said who it is (a legacy host's initialize). */
  profile(): HostProfile | undefined;
  /**
   * Puts a question to the host on the stream of its call `call` (undefined: outside any call). Returns the error the
   * asker gets instead when this host cannot be asked there (a 2026-07-28 host outside tools/call, prompts/get or
   * resources/read).
   */
  ask(question: HostQuestion, call: JsonRpcId | undefined): JsonRpcErrorObject | undefined;
  /** A question the host holds was settled elsewhere (an operator, expiry, the upstream withdrew it): it is void. */
  withdraw(key: string, reason: string | undefined, call: JsonRpcId | undefined): void;
  /** A notification for the host: on the stream of its call `call`, or outside any call. */
  notify(message: JsonRpcNotification, call?: JsonRpcId): void;
  /** Whether something sent outside any call reaches the host now (HTTP: a GET stream is open; never for 2026-07-28). */
  reachableOutsideCalls(): boolean;
  /** The host's call `call` needed what the host did not declare and nobody else could answer (a 2026-07-28 call then ends with -32021). */
  lacks?(call: JsonRpcId, method: string, params: JsonObject): void;
  /**
   * A 2026-07-28 upstream asked for input during the call: the host takes the round as it is (its state sealed in
   * the gateway's own), or undefined when the gateway must run the rounds itself and ask the usual way.
   */
  takeRound?(round: UpstreamRound): Promise<JsonObject | undefined>;
}
