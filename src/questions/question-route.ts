/** @module Where a question goes and who it is put to: the route of a relayed question, the host's profile, and what the desk needs of a host session. */

import type { JsonObject, JsonRpcId, JsonRpcNotification } from '../protocol/jsonrpc.js';

/** The host's revision and capabilities, as it declared them at initialize. */
export interface HostProfile {
  protocolVersion: string;
  capabilities: JsonObject;
}

/** Where a relayed question goes and which calls wait on it. */
export interface QuestionRoute {
  /** The call it was attributed to, if any. */
  callId: number | undefined;
  /** The host request whose stream carries it (undefined: the standalone stream). */
  relatedRequestId: JsonRpcId | undefined;
  /** Calls whose timeout stops until the host answers. */
  pause: number[];
  /** How long the question may wait, when the asker decides it (a composite's elicit step); else the route policy's. */
  timeoutMs?: number;
  /** The policy key of the tool the question is about, when no upstream call names it (a composite). */
  tool?: string;
}

/** What the desk needs of the host session a question came through. */
export interface DeskHost {
  readonly id: string;
  readonly closed: boolean;
  /** Tells the host something about a question it holds (notifications/cancelled), on the stream of `relatedRequestId`. */
  send(message: JsonRpcNotification, relatedRequestId: JsonRpcId | undefined): void;
  /** A 2026-07-28 host's call that needed what the host did not declare ends with -32021 (see ModernHostHooks.hostLacks). */
  hostLacks?(callId: JsonRpcId, method: string, params: JsonObject): void;
}
