/**
 * @module The bounded queue of webhook deliveries: at most `concurrency` attempts at once, retries waiting on timers off
 * the workers, at most `capacity` deliveries held in all (a slow receiver never grows memory without bound: the next one is
 * refused), and on close a brief flush, then every delivery left given up.
 */

/** A delivery as the queue runs it. */
export interface Job {
  /**
   * One attempt: resolves the wait before the next (a retry), or undefined when it is over (sent or given up). Never
   * rejects. An attempt `signal` aborts (the queue closes) ends at once, given up by the job itself.
   */
  run(signal: AbortSignal): Promise<number | undefined>;
  /** The queue stops before this delivery is over (`why` says so); the queue's close waits for what it records. */
  giveUp(why: string): Promise<void> | void;
}

export interface DeliveryQueueOptions {
  capacity: number;
  concurrency: number;
}

const STOPPED = 'the gateway stopped before it could be delivered';

export class DeliveryQueue {
  #options: DeliveryQueueOptions;
  #ready: Job[] = [];
  /** Jobs running, with the end of their attempt. */
  #running = new Map<Job, Promise<void>>();
  /** Jobs waiting for their retry: when it is due and its timer. */
  #waiting = new Map<Job, { dueAt: number; timer: NodeJS.Timeout }>();
  #abort = new AbortController();
  #closed = false;
  #idle: (() => void) | undefined;

  constructor(options: DeliveryQueueOptions) {
    this.#options = options;
  }

  /** Deliveries held: ready, running and waiting to retry. */
  get size(): number {
    return this.#ready.length + this.#running.size + this.#waiting.size;
  }

  /** Takes `job`; false when the queue is full or closed (the caller records it as dropped). */
  push(job: Job): boolean {
    if (this.#closed || this.size >= this.#options.capacity) return false;
    this.#ready.push(job);
    this.#pump();
    return true;
  }

  #pump(): void {
    while (this.#running.size < this.#options.concurrency && this.#ready.length > 0) {
      const job = this.#ready.shift() as Job;
      let ended: () => void = () => undefined;
      this.#running.set(job, new Promise<void>((resolve) => (ended = resolve)));
      void this.#run(job).finally(() => ended());
    }
    if (this.size === 0) this.#idle?.();
  }

  async #run(job: Job): Promise<void> {
    let retryInMs: number | undefined;
    try {
      retryInMs = await job.run(this.#abort.signal);
    } catch {
      retryInMs = undefined;
    }
    this.#running.delete(job);
    if (retryInMs !== undefined && !this.#abort.signal.aborted) {
      const timer = setTimeout(() => {
        this.#waiting.delete(job);
        this.#ready.push(job);
        this.#pump();
      }, retryInMs);
      timer.unref();
      this.#waiting.set(job, { dueAt: performance.now() + retryInMs, timer });
    } else if (retryInMs !== undefined) {
      await job.giveUp(STOPPED);
    }
    this.#pump();
  }

  /**
   * Takes nothing more, lets what can end within `flushMs` end (a retry due later is given up at once), then aborts the
   * attempts in flight and gives up every delivery left. Resolves how many were given up.
   */
  async close(flushMs: number): Promise<number> {
    if (this.#closed) return 0;
    this.#closed = true;
    const deadline = performance.now() + flushMs;
    const given: (Promise<void> | void)[] = [];
    const drop = (job: Job, entry: { timer: NodeJS.Timeout }) => {
      clearTimeout(entry.timer);
      this.#waiting.delete(job);
      given.push(job.giveUp(STOPPED));
    };
    for (const [job, entry] of [...this.#waiting]) if (entry.dueAt > deadline) drop(job, entry);
    if (this.size > 0 && flushMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, flushMs);
        this.#idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.#idle = undefined;
    for (const [job, entry] of [...this.#waiting]) drop(job, entry);
    for (const job of this.#ready.splice(0)) given.push(job.giveUp(STOPPED));
    const running = [...this.#running.values()];
    // An attempt in flight sees the abort and ends at once, recording that it was given up: wait for those records.
    this.#abort.abort();
    await Promise.all([...running, ...given]);
    return given.length + running.length;
  }
}
