/** @module What a stand-in session for 2026-07-28 hosts does differently from a legacy host session, as its calls are routed. */

import type { JsonObject, JsonRpcId } from '../protocol/jsonrpc.js';

/** What a stand-in session for 2026-07-28 hosts does differently from a legacy host session. */
export interface ModernHostHooks {
  /**
   * Pair 2 of the era bridge: a modern upstream's `input_required` answer to one of the host's calls,
   * relayed to the host as it is but with the upstream's `requestState` sealed in the gateway's own.
   * Undefined when the host cannot take it as it is (then the gateway runs the rounds itself, pair 3).
   */
  relayInputRequired(input: {
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
    /** The stand-in session's id (the questions' origin). */
    hostSessionId: string;
  }): Promise<JsonObject | undefined>;
  /**
   * During the host's call `callId`, the upstream asked what the host did not declare a capability for, and
   * nobody else could answer it: the host's call ends with -32021 naming the capability (the upstream is
   * still answered, and its call cancelled).
   */
  hostLacks(callId: JsonRpcId, method: string, params: JsonObject): void;
}
