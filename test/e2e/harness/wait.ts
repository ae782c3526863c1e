/** @module e2e/harness/wait: bounded polling for a condition the system reaches on its own (e.g. a process exiting). */

/** Resolves true once `condition()` holds, false if it still does not after `timeoutMs` (checked every `everyMs`). */
export async function eventually(condition: () => boolean, timeoutMs = 5_000, everyMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (condition()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Whether a process with this pid exists (signal 0 probes without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves when one of `waiters` is woken (the owner calls each on news) or after `ms`, whichever comes first. */
export function nextWake(waiters: Set<() => void>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const wake = (): void => {
      clearTimeout(timer);
      waiters.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    waiters.add(wake);
  });
}
