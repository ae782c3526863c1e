/** @module The clock and id ports: what time it is (the system's or a test's), and per-instance counters for ids such as `sb-N`. */

/** What time it is. Code that reads the time takes one of these, so that a test can move it by hand. */
export interface Clock {
  /** Milliseconds since the epoch (what `Date.now()` gives). */
  now(): number;
  /** The same instant as a Date (for timestamps). */
  date(): Date;
}

/** The system's clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  date: () => new Date(),
};

/** A clock that moves only when told (tests). */
export class ManualClock implements Clock {
  #ms: number;

  constructor(start: number | string = '2026-03-01T09:00:00.000Z') {
    this.#ms = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): number {
    return this.#ms;
  }

  date(): Date {
    return new Date(this.#ms);
  }

  /** Moves the clock on by `ms` and returns the new time. */
  advance(ms: number): number {
    this.#ms += ms;
    return this.#ms;
  }
}

/** Numbers ids: 1, 2, 3… per series, counted by the instance (two instances never share a count). */
export interface IdSource {
  /** The next number of `series` (the first is 1). */
  next(series: string): number;
}

/** An IdSource counting in memory. */
export class CountingIds implements IdSource {
  #counts = new Map<string, number>();

  next(series: string): number {
    const value = (this.#counts.get(series) ?? 0) + 1;
    this.#counts.set(series, value);
    return value;
  }
}
