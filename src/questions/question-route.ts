/** @module Where a question goes and who it is put to: the route of a relayed question, the host's profile, and what the desk needs of a host session. */

import type { JsonRpcId } from '../protocol/jsonrpc.js';
import type { HostPort } from '../ports/host-port.js';

export type { HostProfile } from '../ports/host-port.js';

/** Where a relayed question goes and which calls wait on it. */
export interface QuestionRoute {
  /** The call it was attributed to, if any. */
  callId: number | undefined;
  /** That call's tool (as the host and its upstream name it), when whoever attributed it had the call at hand; else it is looked up by `callId`. */
  callTool?: { host: string; upstream: string } | undefined;
  /** The host request whose stream carries it (undefined: the standalone stream). */
  relatedRequestId: JsonRpcId | undefined;
  /** Calls whose timeout stops until the host answers. */
  pause: number[];
  /** How long the question may wait, when the asker decides it (a composite's elicit step); else the route policy's. */
  timeoutMs?: number;
  /** The policy key of the tool the question is about, when no upstream call names it (a composite). */
  tool?: string;
}

/** What the desk needs of the host a question came through: to withdraw a question it holds, and to say what it lacked. */
export type DeskHost = Pick<HostPort, 'id' | 'closed' | 'withdraw' | 'lacks'>;
