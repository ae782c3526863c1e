/** @module An incremental Server-Sent Events parser: bytes in, `{event, data, id}` records out. */

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export class SseParser {
  #decoder = new TextDecoder();
  #buffer = '';
  #lastEventId: string | undefined;
  #retryMs: number | undefined;

  /** The last `id:` seen on this stream (kept across events, as EventSource does); sent back as Last-Event-ID. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** The last `retry:` the server asked for, in milliseconds. */
  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  /** Feeds a chunk and returns the events it completed. */
  push(chunk: Uint8Array): SseEvent[] {
    this.#buffer += this.#decoder.decode(chunk, { stream: true });
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n\r\n|\n\n|\r\r/.exec(this.#buffer);
      if (!match) break;
      const block = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      const event = this.#parseBlock(block);
      if (event) events.push(event);
    }
    return events;
  }

  #parseBlock(block: string): SseEvent | undefined {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
      else if (field === 'id' && !value.includes('\0')) id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) this.#retryMs = Number(value);
    }
    if (id !== undefined) this.#lastEventId = id;
    if (data.length === 0) return undefined;
    return id === undefined ? { event, data: data.join('\n') } : { event, data: data.join('\n'), id };
  }
}
