/** @module An incremental Server-Sent Events parser, pure: text chunks in, complete events out (comments and empty events dropped). */

export interface SseEvent {
  /** The `event:` field, when given (undefined means "message"). */
  event: string | undefined;
  id: string | undefined;
  /** The `data:` lines joined with newlines. */
  data: string;
}

/** Feeds on decoded text; yields each event once its blank line has arrived (line ends may be \n, \r\n or \r). */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #event: string | undefined;
  #id: string | undefined;

  /** The events completed by `chunk`. */
  push(chunk: string): SseEvent[] {
    this.#buffer += chunk;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\n|\r/.exec(this.#buffer);
      // A lone \r at the very end may be the first half of \r\n: wait for more.
      if (match === null || (match[0] === '\r' && match.index === this.#buffer.length - 1)) break;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      const event = this.#line(line);
      if (event !== undefined) events.push(event);
    }
    return events;
  }

  /** The end of the stream: a held-back final \r ends its line; a last event without its blank line is dropped, as the SSE standard says. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.#buffer.endsWith('\r')) {
      const event = this.#line(this.#buffer.slice(0, -1));
      if (event !== undefined) events.push(event);
    }
    this.#buffer = '';
    this.#data = [];
    this.#event = undefined;
    return events;
  }

  #line(line: string): SseEvent | undefined {
    if (line === '') {
      const event = this.#data.length === 0 ? undefined : { event: this.#event, id: this.#id, data: this.#data.join('\n') };
      this.#data = [];
      this.#event = undefined;
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id') this.#id = value;
    return undefined;
  }
}
