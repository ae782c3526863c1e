/** @module Who listens to a desk's question changes (console streams, metrics, webhooks): each is told in turn, and one that throws harms no other. */

import type { Logger } from '../core/log.js';
import type { QuestionEvent } from './operator-desk.js';

export class QuestionListeners {
  #listeners = new Set<(event: QuestionEvent) => void>();
  #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Whether anybody listens (an event need not be built otherwise). */
  get any(): boolean {
    return this.#listeners.size > 0;
  }

  add(listener: (event: QuestionEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: QuestionEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.log('warn', 'a question listener failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
