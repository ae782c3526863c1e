/** @module The requests an upstream session sent that still wait for their answers: their per-call timeouts, which pause while a host is answering. */

import type { JsonObject, JsonRpcErrorObject } from '../protocol/jsonrpc.js';

/** A request we sent that is still waiting for its answer. */
export interface PendingCall {
  readonly id: number;
  readonly method: string;
  /** performance.now() when it was sent: the monotonic start of its duration. */
  readonly sentAt: number;
  /** 0 or less: no timeout. */
  readonly timeoutMs: number;
  readonly resolve: (result: JsonObject) => void;
  readonly reject: (error: Error) => void;
  readonly onProgress: ((params: JsonObject) => void) | undefined;
  readonly onErrorResponse: ((error: JsonRpcErrorObject) => void) | undefined;
  readonly onResult: ((result: JsonObject) => void) | undefined;
}

/** A pending call with its running timer, and how many questions of it are being answered now (the timer stops while any is). */
interface Slot {
  readonly call: PendingCall;
  timer: NodeJS.Timeout | undefined;
  pauses: number;
}

/**
 * The table of pending calls by our id. A call leaves it once: answered (take), given up (take), timed out
 * (the table removes it and hands it to `onTimeout`) or drained when the session ends.
 */
export class PendingCalls {
  readonly #slots = new Map<number, Slot>();
  readonly #onTimeout: (call: PendingCall) => void;

  /** `onTimeout` gets a call whose timeout ran out, already removed from the table. */
  constructor(onTimeout: (call: PendingCall) => void) {
    this.#onTimeout = onTimeout;
  }

  /** Adds a call and starts its timeout clock. */
  add(call: PendingCall): void {
    const slot: Slot = { call, timer: undefined, pauses: 0 };
    this.#slots.set(call.id, slot);
    this.#arm(slot);
  }

  has(id: number): boolean {
    return this.#slots.has(id);
  }

  get(id: number): PendingCall | undefined {
    return this.#slots.get(id)?.call;
  }

  /** Removes a call (its timer stopped) and returns it; undefined if it is not pending. */
  take(id: number): PendingCall | undefined {
    const slot = this.#slots.get(id);
    if (!slot) return undefined;
    this.#slots.delete(id);
    clearTimeout(slot.timer);
    return slot.call;
  }

  /** Removes every call (their timers stopped) and returns them in the order they were sent. */
  takeAll(): PendingCall[] {
    const slots = [...this.#slots.values()];
    this.#slots.clear();
    for (const slot of slots) clearTimeout(slot.timer);
    return slots.map((slot) => slot.call);
  }

  /** Stops the timeout clock of a call while a host (or a person) is answering one of its questions. */
  pause(id: number): void {
    const slot = this.#slots.get(id);
    if (!slot) return;
    slot.pauses += 1;
    clearTimeout(slot.timer);
    slot.timer = undefined;
  }

  /** One question of the call is answered: its clock starts afresh once none is left. */
  resume(id: number): void {
    const slot = this.#slots.get(id);
    if (!slot || slot.pauses === 0) return;
    slot.pauses -= 1;
    if (slot.pauses === 0) this.#arm(slot);
  }

  /** Starts the timeout of a call afresh (progress shows it is alive), unless it is paused. */
  restartTimer(id: number): void {
    const slot = this.#slots.get(id);
    if (slot) this.#arm(slot); // #arm does not start the clock of a paused call
  }

  #arm(slot: Slot): void {
    clearTimeout(slot.timer);
    const { call } = slot;
    if (slot.pauses > 0 || call.timeoutMs <= 0) return;
    slot.timer = setTimeout(() => {
      if (!this.#slots.delete(call.id)) return;
      this.#onTimeout(call);
    }, call.timeoutMs);
    slot.timer.unref?.();
  }
}
