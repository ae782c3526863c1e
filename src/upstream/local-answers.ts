/** @module Questions the gateway made from an upstream's embedded input requests: their ids, and the handlers their answers go to instead of the wire. */

import type { JsonObject, JsonRpcErrorObject, JsonRpcId } from '../protocol/jsonrpc.js';

/** How the gateway answered a question it made from an embedded input request: a result, or an error. */
export type LocalAnswer = { result: JsonObject } | { error: JsonRpcErrorObject };

/** The unanswered local questions of one upstream session, each with the handler its answer goes to (once). */
export class LocalAnswers {
  readonly #handlers = new Map<JsonRpcId, (answer: LocalAnswer) => void>();
  #count = 0;

  /** A fresh id for such a question (`sb-in-N`, counted per upstream session: its answers come back to this session only). */
  newId(): string {
    this.#count += 1;
    return `sb-in-${this.#count}`;
  }

  /** The answer to `id` goes to `handler`. */
  expect(id: JsonRpcId, handler: (answer: LocalAnswer) => void): void {
    this.#handlers.set(id, handler);
  }

  /** Whether `id` names such a question that is still unanswered. */
  has(id: JsonRpcId): boolean {
    return this.#handlers.has(id);
  }

  /** Stops expecting the answer to `id`: a late answer then finds no handler. */
  forget(id: JsonRpcId): void {
    this.#handlers.delete(id);
  }

  /** Hands the answer to the handler of `id`, which is then forgotten; false if no handler expects it. */
  deliver(id: JsonRpcId, answer: LocalAnswer): boolean {
    const handler = this.#handlers.get(id);
    if (!handler) return false;
    this.#handlers.delete(id);
    handler(answer);
    return true;
  }

  /** Answers every unanswered question with an error of its own (`error()` makes each), forgetting them all. */
  failAll(error: () => JsonRpcErrorObject): void {
    const handlers = [...this.#handlers.values()];
    this.#handlers.clear();
    for (const handler of handlers) handler({ error: error() });
  }
}
