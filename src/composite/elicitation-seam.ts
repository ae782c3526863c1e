/**
 * @module The seam through which a composite asks a person something: the core's own request and result
 * types. The gateway implements it by handing the question to the desk (host or operator, per the route
 * policy); no SDK or wire type crosses it.
 */

import type { JsonObject } from '../protocol/jsonrpc.js';

export interface ElicitationRequest {
  message: string;
  /** A flat form schema (the same rules as any elicitation: limits, property kinds). */
  requestedSchema: JsonObject;
  /** Free-form context for the record (which composite and step asked). */
  meta?: JsonObject;
}

export interface ElicitationResult {
  action: 'accept' | 'decline' | 'cancel';
  /** On accept: the answer, already checked against requestedSchema. */
  content?: JsonObject;
  /** Who answered (e.g. `host`, `operator:alice`), for the record and for "who declined what". */
  answeredBy?: string;
  /** The desk's question id, when the question went through the desk. */
  questionId?: string;
}

export interface ElicitationRequester {
  /**
   * Asks and waits for the answer. Rejects only when nobody can be asked at all; a question nobody answers
   * in time ends with `signal` aborted by the caller (its timeout), which the composer reports as a timeout.
   */
  elicit(request: ElicitationRequest, options: { signal: AbortSignal; timeoutMs: number }): Promise<ElicitationResult>;
}
