/** @module Bounded waits for tests in any layer (and the e2e harness): a promise raced against a deadline, a condition polled until it holds. */

/** Resolves `true` when `promise` settles (either way) within `ms`, `false` otherwise; never rejects. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once `check()` holds (polled every 5 ms; it may be async); after 3 s it rejects, naming `what` it waited for. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
