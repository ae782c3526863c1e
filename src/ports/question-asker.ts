/** @module Who asked a question a host session relays: an upstream session, or the gateway itself (a composite tool's elicit step). */

import type { ProtocolError } from '../protocol/errors.js';
import type { JsonObject, JsonRpcId } from '../protocol/jsonrpc.js';

/** What the question path needs of the asker: its name for policy and records, and where the answer goes. */
export interface QuestionAsker {
  /** `spec.name` keys the route policy and names the question's origin. */
  readonly spec: { readonly name: string };
  /** Unique per asker (URL-mode elicitation completions are matched by it). */
  readonly key: string;
  /** The revision the asker speaks (an answer is fitted to it). */
  readonly protocolVersion: string | undefined;
  /**
   * Whether the asker may send more questions of one round right after each other (a legacy upstream's concurrent
   * requests mid-call): a host that gathers questions into rounds waits a moment for them. Absent: never.
   */
  readonly asksInBursts?: boolean;
  /** The answer; `answeredBy` says who gave it, in words (the host, the operator NAME, the gateway), when known. */
  respond(id: JsonRpcId, result: JsonObject, answeredBy?: string): void;
  respondError(id: JsonRpcId, error: ProtocolError): void;
  /** Stops and restarts the timeout clock of the asker's call `id` while a question of it is open. */
  pause(id: number): void;
  resume(id: number): void;
  /** The question desk recorded question `id` as `questionId` (for an asker that keeps its own record). */
  recorded?(id: JsonRpcId, questionId: string): void;
  /** Progress the host reports about a question goes back to the asker. */
  notify(method: string, params?: JsonObject): Promise<void>;
}
