/** @module One SSE response body: text written to it is handed to the HTTP server when it asks, coalescing what piled up meanwhile. */

const encoder = new TextEncoder();

/**
 * The body of one `text/event-stream` response. Writes are strings of whole SSE events; they are
 * buffered until the server pulls, so events sent while a previous chunk is being written go out as
 * one chunk. The host dropping the connection calls `onCancel` once (it is not a cancellation of
 * anything: the owner just stops writing here). Ending it from our side does not call `onCancel`.
 */
export class SseConnection {
  readonly body: ReadableStream<Uint8Array>;
  readonly #onCancel: () => void;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #pending = '';
  /** Resolves the pull the server is waiting on, when it is waiting. */
  #wake: (() => void) | undefined;
  #open = true;

  constructor(onCancel: () => void) {
    this.#onCancel = onCancel;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => this.#pull(),
        cancel: () => {
          if (!this.#open) return;
          this.#open = false;
          this.#pending = '';
          this.#release();
          this.#onCancel();
        },
      },
      // No read-ahead: pull is called only while a reader waits, so pending writes coalesce.
      { highWaterMark: 0 },
    );
  }

  /** Whether writes still reach the host (neither ended nor dropped). */
  get open(): boolean {
    return this.#open;
  }

  write(text: string): void {
    if (!this.#open) return;
    this.#pending += text;
    if (this.#wake !== undefined) this.#flush();
  }

  /** Sends what is pending and ends the response. Idempotent. */
  end(): void {
    if (!this.#open) return;
    this.#open = false;
    if (this.#pending !== '') this.#flush();
    this.#release();
    this.#controller?.close();
  }

  #pull(): Promise<void> | undefined {
    if (this.#pending !== '') {
      this.#flush();
      return undefined;
    }
    if (!this.#open) return undefined;
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }

  #flush(): void {
    const chunk = encoder.encode(this.#pending);
    this.#pending = '';
    this.#controller?.enqueue(chunk);
    this.#release();
  }

  #release(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
