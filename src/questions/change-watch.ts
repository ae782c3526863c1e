/**
 * @module What a desk on a store several gateways share hears of the others' writes: every change the store tells
 * of (its own writes left out), read back once, and a periodic re-read of what the desk holds, so a notification
 * lost on the way delays an answer by at most `recheckMs`.
 */

import type { Logger } from '../core/log.js';
import type { QuestionRecord } from './question.js';
import type { QuestionStore } from './question-store.js';

/** Own writes remembered at most: a notification of one that never comes must not keep it forever. */
const MAX_OWN = 10_000;

export interface ChangeWatchOptions {
  store: QuestionStore & Required<Pick<QuestionStore, 'changes'>>;
  logger: Logger;
  recheckMs: number;
  /** Another writer changed question `id`; `record` is what it is now (undefined when it is gone). */
  changed(id: string, record: QuestionRecord | undefined): Promise<void>;
  /** The ids to re-read now and then (the recorded questions the desk holds). */
  held(): string[];
}

export class ChangeWatch {
  #options: ChangeWatchOptions;
  /** Questions this desk is writing (id -> writes in flight): the store's notification of them is not news. */
  #own = new Map<string, number>();
  #unlisten: () => void;
  #recheck: NodeJS.Timeout;

  constructor(options: ChangeWatchOptions) {
    this.#options = options;
    this.#unlisten = options.store.changes((id) => void this.#heard(id));
    this.#recheck = setInterval(() => void this.#recheckHeld(), options.recheckMs);
    this.#recheck.unref();
  }

  /** This desk writes question `id` now (before the write: a store may tell of it before the write resolves). */
  ownWrite(id: string): void {
    if (this.#own.size >= MAX_OWN) this.#own.delete(this.#own.keys().next().value as string);
    this.#own.set(id, (this.#own.get(id) ?? 0) + 1);
  }

  /** A write `ownWrite` announced did not happen (it failed, or lost its compare-and-set). */
  notWritten(id: string): void {
    this.#forget(id);
  }

  close(): void {
    this.#unlisten();
    clearInterval(this.#recheck);
  }

  async #heard(id: string): Promise<void> {
    if (this.#own.has(id)) {
      this.#forget(id);
      return;
    }
    await this.#readBack(id);
  }

  async #readBack(id: string): Promise<void> {
    let record: QuestionRecord | undefined;
    try {
      record = await this.#options.store.get(id);
    } catch (error) {
      this.#options.logger.log('warn', `could not read question ${id} after a change`, { error: error instanceof Error ? error.message : String(error) });
      return;
    }
    await this.#options.changed(id, record);
  }

  async #recheckHeld(): Promise<void> {
    for (const id of this.#options.held()) await this.#readBack(id);
  }

  #forget(id: string): void {
    const left = (this.#own.get(id) ?? 1) - 1;
    if (left > 0) this.#own.set(id, left);
    else this.#own.delete(id);
  }
}
