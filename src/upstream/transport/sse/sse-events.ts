/** @module The gateway's one Server-Sent Events parser: a thin layer over eventsource-parser (bytes or text in, whole events out). */

import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface SseEvent {
  /** The `event:` field; undefined means "message". */
  event: string | undefined;
  /** The `id:` field of this event, when it had one. */
  id: string | undefined;
  /** The `data:` lines joined with "\n" ('' for a priming event with an empty data line). */
  data: string;
}

/**
 * An incremental parser for one stream. Every line ending the standard allows (\n, \r\n, \r, and any mix) ends
 * lines; an event without its blank line at the end of the stream is dropped, as the standard says. Events
 * without any data line (only `id:` or `event:`) are not events (eventsource-parser does not report them).
 */
export class SseEventParser {
  readonly #decoder = new TextDecoder();
  readonly #parser: EventSourceParser;
  #completed: SseEvent[] = [];
  #lastEventId: string | undefined;
  #retryMs: number | undefined;
  #endsWithCr = false;

  constructor() {
    this.#parser = createParser({
      onEvent: ({ event, id, data }) => {
        if (id !== undefined) this.#lastEventId = id;
        this.#completed.push({ event, id, data });
      },
      onRetry: (ms) => (this.#retryMs = ms),
    });
  }

  /** The id of the last event that had one; sent back as Last-Event-ID. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** The last `retry:` the server asked for, in milliseconds. */
  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  /** Feeds a chunk (bytes are decoded as UTF-8 across chunk boundaries) and returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[] {
    this.#feed(typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true }));
    return this.#take();
  }

  /**
   * The end of the stream: what the decoder still held is fed, and a final \r (which the parser holds back in
   * case a \n follows) ends its line; an unterminated last event is dropped.
   */
  end(): SseEvent[] {
    this.#feed(this.#decoder.decode());
    if (this.#endsWithCr) this.#feed('\n');
    const events = this.#take();
    this.#parser.reset();
    return events;
  }

  #feed(text: string): void {
    if (text === '') return;
    this.#parser.feed(text);
    this.#endsWithCr = text.endsWith('\r');
  }

  #take(): SseEvent[] {
    const events = this.#completed;
    this.#completed = [];
    return events;
  }
}

/** Every event of a whole SSE text. */
export function parseSseText(text: string): SseEvent[] {
  const parser = new SseEventParser();
  return [...parser.push(text), ...parser.end()];
}

/** The events of an SSE body as they arrive; leaving the loop early cancels the body. */
export async function* readSseEvents(body: ReadableStream<Uint8Array>, parser = new SseEventParser()): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  let finished = false;
  try {
    while (!finished) {
      const { done, value } = await reader.read();
      finished = done;
      yield* done ? parser.end() : parser.push(value);
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}
