// @ts-check
/**
 * @module Live events for the console: reads /api/questions/events with fetch() so the request carries the Bearer
 * header (or the session cookie) (EventSource cannot send one, and a token in the URL would end up in logs), and reconnects with backoff.
 */

/** @typedef {{ event: string, data: string }} SseEvent */

/**
 * An incremental text/event-stream parser: feed it text as it arrives; it calls `onEvent` per complete event
 * (comments and `retry:` lines are skipped; data lines are joined with "\n").
 * @param {(event: SseEvent) => void} onEvent
 * @returns {(text: string) => void}
 */
export function createSseParser(onEvent) {
  let buffer = '';
  return (text) => {
    buffer += text.replace(/\r\n?/g, '\n');
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      /** @type {string[]} */
      const data = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) onEvent({ event, data: data.join('\n') });
    }
  };
}

/**
 * Follows the event stream until `close()`. `onStatus` gets 'live' once connected and 'reconnecting' while it waits
 * to try again (1 s, doubling up to 15 s); a 401 stops it and calls `onUnauthorized`.
 * @param {{ token: () => string | null, onEvent: (event: SseEvent) => void, onStatus: (status: 'connecting' | 'live' | 'reconnecting') => void, onUnauthorized: () => void }} options
 * @returns {{ close: () => void }}
 */
export function followEvents({ token, onEvent, onStatus, onUnauthorized }) {
  let controller = new AbortController();
  let closed = false;
  let delay = 1000;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  async function connect() {
    onStatus('connecting');
    controller = new AbortController();
    try {
      const response = await fetch('/api/questions/events', {
        headers: { ...(token() === null ? {} : { authorization: `Bearer ${token()}` }), accept: 'text/event-stream' },
        cache: 'no-store',
        credentials: 'same-origin',
        signal: controller.signal,
      });
      if (response.status === 401) {
        closed = true;
        onUnauthorized();
        return;
      }
      if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
      onStatus('live');
      delay = 1000;
      const parse = createSseParser(onEvent);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parse(value);
      }
    } catch {
      // Dropped, refused or aborted: try again below unless closed.
    }
    if (closed) return;
    onStatus('reconnecting');
    timer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, 15_000);
  }

  void connect();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      controller.abort();
    },
  };
}
