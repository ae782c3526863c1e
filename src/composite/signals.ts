/** @module Abort plumbing for composite runs: child controllers, abortable waits and races against a signal. */

/** A controller aborted when `parent` aborts (with the parent's reason); `dispose` detaches it from the parent. */
export function childController(parent: AbortSignal): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, dispose: () => {} };
  }
  const onAbort = (): void => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', onAbort) };
}

/** The longest delay setTimeout honours. */
const MAX_TIMER_MS = 2_147_483_647;

/** A timer that calls `fire` after `ms` (clamped to what setTimeout can hold); returns the cancel. */
export function startTimer(ms: number, fire: () => void): () => void {
  const timer = setTimeout(fire, Math.max(0, Math.min(ms, MAX_TIMER_MS)));
  return () => clearTimeout(timer);
}

/** Waits `ms`; resolves true when the time passed, false as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      cancel();
      resolve(false);
    };
    const cancel = startTimer(ms, () => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Settles like `promise`, or rejects with `signal.reason` as soon as `signal` aborts, whichever is first: a
 * callee that ignores its signal cannot hold a run past its timeout. A late rejection of `promise` is swallowed.
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The message of a thrown value. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : JSON.stringify(error) ?? String(error);
}

/** How a call under its own timeout ended: its value, its own timer firing, the parent signal aborting, or an error. */
export type TimedCall<T> = { kind: 'ok'; value: T } | { kind: 'timed-out' } | { kind: 'aborted' } | { kind: 'error'; error: unknown };

/**
 * Runs `start` with a signal that aborts after `timeoutMs` or with `parent`, racing it against that signal (a
 * callee that ignores the signal is not waited for). Never rejects.
 */
export async function callWithTimeout<T>(parent: AbortSignal, timeoutMs: number, start: (signal: AbortSignal) => Promise<T>): Promise<TimedCall<T>> {
  const { controller, dispose } = childController(parent);
  let timedOut = false;
  const stopTimer = startTimer(timeoutMs, () => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  });
  try {
    return { kind: 'ok', value: await raceSignal(start(controller.signal), controller.signal) };
  } catch (error) {
    if (timedOut) return { kind: 'timed-out' };
    if (parent.aborted) return { kind: 'aborted' };
    return { kind: 'error', error };
  } finally {
    stopTimer();
    dispose();
  }
}
