/** @module The wait for every upstream's first probe, each for at most its connect timeout: what a host's `initialize` (and `server/discover`) waits for. */

export interface FirstProbe {
  /** Settles when the upstream was tried once (up or down). */
  tried: Promise<void>;
  /** The upstream's connect timeout: the longest a host waits for this probe. */
  timeoutMs: number;
}

/** Resolves once every probe has settled or run out of its time, whichever comes first for each; never rejects. */
export function firstProbesSettled(probes: readonly FirstProbe[]): Promise<void> {
  const each = probes.map(
    ({ tried, timeoutMs }) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        timer.unref?.();
        const done = (): void => {
          clearTimeout(timer);
          resolve();
        };
        tried.then(done, done);
      }),
  );
  return Promise.all(each).then(() => undefined);
}
