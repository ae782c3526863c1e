/**
 * @module A fetch that gives every request its own AbortSignal. The SDK's HTTP client transports hand
 * one connection-wide signal to every fetch, and undici keeps a listener per request on it until GC,
 * which piles up on a long-lived upstream connection (see docs/design/001-architecture.md).
 */

export function perRequestSignalFetch(): typeof fetch {
  return async (input, init) => {
    const shared = init?.signal;
    if (!shared) return fetch(input, init);
    if (shared.aborted) return fetch(input, init);
    const own = new AbortController();
    const relay = () => own.abort(shared.reason);
    shared.addEventListener('abort', relay, { once: true });
    try {
      return await fetch(input, { ...init, signal: own.signal });
    } finally {
      shared.removeEventListener('abort', relay);
    }
  };
}
