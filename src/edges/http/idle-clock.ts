/** @module The idle clock of one host session on the HTTP edge: it closes the session after the idle timeout without use, never while the session is busy. */

import type { Clock } from '../../core/clock.js';
import { systemClock } from '../../core/clock.js';

export interface IdleClockOptions {
  /** Closes after this long without use; 0 disables. */
  timeoutMs: number;
  /** Whether the session is busy now (a call in flight, a stream held open): then it is not idle, however old its last use. */
  busy(): boolean;
  /** The session has been idle for the timeout. Called once. */
  onIdle(): void;
  /** Called on every use (the session count keeps the least recently used first). */
  onUse?(): void;
  /** What time it is (default the system's). */
  clock?: Clock;
}

export class IdleClock {
  readonly #options: IdleClockOptions;
  readonly #clock: Clock;
  #lastUsed: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(options: IdleClockOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#lastUsed = this.#clock.now();
  }

  /** The session was used (a request came, a message went out): the idle time starts again. */
  touch(): void {
    this.#lastUsed = this.#clock.now();
    this.#options.onUse?.();
    if (this.#timer === undefined) this.#arm(this.#options.timeoutMs);
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    if (this.#stopped || this.#options.timeoutMs <= 0) return;
    this.#timer = setTimeout(() => this.#check(), ms);
    this.#timer.unref?.();
  }

  /** One timer at a time: it wakes when the session could first be idle long enough, and looks again. */
  #check(): void {
    this.#timer = undefined;
    if (this.#options.busy()) {
      // Busy counts as use: the idle time starts when the session stops being busy (within one timeout).
      this.#lastUsed = this.#clock.now();
      return this.#arm(this.#options.timeoutMs);
    }
    const left = this.#lastUsed + this.#options.timeoutMs - this.#clock.now();
    if (left > 0) return this.#arm(left);
    this.stop();
    this.#options.onIdle();
  }
}
