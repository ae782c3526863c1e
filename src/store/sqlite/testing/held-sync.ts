/** @module Test helpers for the WAL sync: a sync that ends only when the test says (or at once), and a check of whether a promise has settled. */

export interface HeldSync {
  /** The stand-in for the file sync. */
  sync: () => Promise<void>;
  /** How many syncs have started. */
  readonly started: number;
  /** Holds the syncs that start from now on until released. */
  hold(): void;
  /** Ends the first `count` syncs waiting (all by default); with `andStop`, later ones end at once again. */
  release(count?: number, andStop?: boolean): void;
  /** Fails every sync waiting with `error`. */
  fail(error: Error): void;
}

/** A sync that ends at once, or, while held, when released. */
export function heldSync(options: { held?: boolean } = {}): HeldSync {
  let held = options.held ?? false;
  let started = 0;
  const waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  return {
    sync: () => {
      started += 1;
      if (!held) return Promise.resolve();
      return new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
    },
    get started() {
      return started;
    },
    hold: () => {
      held = true;
    },
    release: (count = waiting.length, andStop = false) => {
      if (andStop) held = false;
      for (const sync of waiting.splice(0, count)) sync.resolve();
    },
    fail: (error) => {
      for (const sync of waiting.splice(0)) sync.reject(error);
    },
  };
}

/** Whether `promise` has settled once everything already queued (microtasks, I/O callbacks of this turn) has run. */
export async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}
