/**
 * @module e2e/harness/sse-reader: an incremental reader of one SSE (or single-JSON) response body. A pump parses
 * events as they arrive; `next()` waits for the next JSON-RPC message with a bounded timeout.
 */

import { readSseEvents } from '../../../src/upstream/transport/sse/sse-events.js';

export type WireMessage = {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

/** Default bound for waiting on one event. */
export const EVENT_TIMEOUT_MS = 10_000;

type Waiter = (item: WireMessage | undefined) => void;

/** Parses SSE events off `response.body` as they arrive (the gateway's own parser), handing each JSON message to `push`; priming events are skipped. */
async function pumpSse(response: Response, push: (message: WireMessage) => void): Promise<void> {
  if (!response.body) return;
  for await (const event of readSseEvents(response.body)) {
    if (event.data !== '') push(JSON.parse(event.data) as WireMessage);
  }
}

export class MessageReader {
  /** HTTP status and content type of the response being read. */
  readonly status: number;
  readonly contentType: string;
  /** Every message read so far, in order (including ones already returned by next()). */
  readonly seen: WireMessage[] = [];
  readonly #queue: WireMessage[] = [];
  readonly #waiters: Waiter[] = [];
  readonly #abort: AbortController | undefined;
  #ended = false;
  #failure: Error | undefined;
  /** Resolves once the body has ended (or failed). */
  readonly finished: Promise<void>;

  private constructor(
    response: Response,
    abort: AbortController | undefined,
    source: (push: (message: WireMessage) => void) => Promise<void>,
  ) {
    this.status = response.status;
    this.contentType = response.headers.get('content-type') ?? '';
    this.#abort = abort;
    this.finished = source((message) => this.#push(message))
      .catch((error: unknown) => {
        if (!abort?.signal.aborted) this.#failure = error instanceof Error ? error : new Error(String(error));
      })
      .finally(() => {
        this.#ended = true;
        for (const waiter of this.#waiters.splice(0)) waiter(undefined);
      });
  }

  /**
   * Reads `response` (SSE or one JSON body); `abort` (the fetch's controller) lets close() end it early;
   * `observe` sees every message as it arrives (for transcripts).
   */
  static of(response: Response, abort?: AbortController, observe?: (message: WireMessage) => void): MessageReader {
    const type = response.headers.get('content-type') ?? '';
    const sse = type.startsWith('text/event-stream');
    return new MessageReader(response, abort, async (push) => {
      const deliver = (message: WireMessage): void => {
        observe?.(message);
        push(message);
      };
      if (sse) return pumpSse(response, deliver);
      const text = await response.text();
      if (text.trim() !== '') deliver(JSON.parse(text) as WireMessage);
    });
  }

  #push(message: WireMessage): void {
    this.seen.push(message);
    const waiter = this.#waiters.shift();
    if (waiter) waiter(message);
    else this.#queue.push(message);
  }

  /** The next message, or undefined once the stream has ended; rejects after `timeoutMs` with what was seen. */
  next(timeoutMs = EVENT_TIMEOUT_MS): Promise<WireMessage | undefined> {
    const queued = this.#queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = (item) => {
        clearTimeout(timer);
        if (item === undefined && this.#failure) reject(this.#failure);
        else resolve(item);
      };
      const timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        reject(new Error(`no SSE message within ${timeoutMs} ms; seen so far: ${JSON.stringify(this.seen)}`));
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  /** The next message, which must exist (the stream must not end first). */
  async expectNext(timeoutMs = EVENT_TIMEOUT_MS): Promise<WireMessage> {
    const message = await this.next(timeoutMs);
    if (!message) throw new Error(`the stream ended; seen: ${JSON.stringify(this.seen)}`);
    return message;
  }

  /** Skips messages until one satisfies `match` (bounded by `timeoutMs` overall); returns it. */
  async until(match: (message: WireMessage) => boolean, timeoutMs = EVENT_TIMEOUT_MS): Promise<WireMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = await this.expectNext(Math.max(1, deadline - Date.now()));
      if (match(message)) return message;
    }
  }

  /** Every remaining message until the stream ends (bounded). */
  async rest(timeoutMs = EVENT_TIMEOUT_MS): Promise<WireMessage[]> {
    const deadline = Date.now() + timeoutMs;
    const out: WireMessage[] = [];
    for (;;) {
      const message = await this.next(Math.max(1, deadline - Date.now()));
      if (!message) return out;
      out.push(message);
    }
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Stops reading (aborts the underlying fetch) and waits for the pump to stop. */
  async close(): Promise<void> {
    this.#abort?.abort();
    await this.finished;
  }
}
