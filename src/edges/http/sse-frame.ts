/** @module The one writer of Server-Sent Events: an event's `event`/`id`/`retry`/`data` lines, a comment, and the keep-alive timer of open streams. */

/** One event on a `text/event-stream`. `data` may hold line breaks: each line becomes its own `data:` line. */
export interface SseEvent {
  event?: string;
  id?: string;
  /** The reconnection delay the client should use, in milliseconds. */
  retry?: number;
  data: string;
}

/** A field value must not break the line it is written on. */
function oneLine(field: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new Error(`an SSE ${field} must be one line`);
  return value;
}

/** The `retry`, `event` and `id` lines of an event, in that order. */
function fieldLines({ event, id, retry }: Omit<SseEvent, 'data'>): string {
  let text = '';
  if (retry !== undefined) text += `retry: ${Math.max(0, Math.trunc(retry))}\n`;
  if (event !== undefined) text += `event: ${oneLine('event name', event)}\n`;
  if (id !== undefined) text += `id: ${oneLine('id', id)}\n`;
  return text;
}

/** The text of one event, ended by the blank line that dispatches it. */
export function sseEvent(event: SseEvent): string {
  let text = fieldLines(event);
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** An `event: message` whose data is one JSON value: JSON.stringify never writes a raw line break, so it is one `data:` line. */
export function sseJsonEvent(data: unknown, fields: Omit<SseEvent, 'data'> = { event: 'message' }): string {
  const json: string | undefined = JSON.stringify(data);
  if (json === undefined) throw new TypeError('an SSE JSON event needs a JSON value, not undefined, a function or a symbol');
  return `${fieldLines(fields)}data: ${json}\n\n`;
}

/** A comment line: clients ignore it, proxies see traffic. */
export function sseComment(text: string): string {
  return `: ${oneLine('comment', text)}\n\n`;
}

/** What a keep-alive writes to: one stream, or every stream of a set. */
export interface SseSink {
  write(text: string): void;
}

export interface KeepAliveOptions {
  periodMs: number;
  /** The comment written (`keepalive`, `keep-alive`). */
  text: string;
  /** Whether the timer lets the process exit while it runs (a timer owned by a session that may never be closed). */
  unref?: boolean;
}

/**
 * Writes the comment every `periodMs` to each sink `sinks()` returns at that moment; a period of 0 or less
 * writes nothing. Returns the function that stops it.
 */
export function startSseKeepAlive(sinks: () => Iterable<SseSink>, { periodMs, text, unref = false }: KeepAliveOptions): () => void {
  if (!(periodMs > 0)) return () => undefined;
  const frame = sseComment(text);
  const timer = setInterval(() => {
    for (const sink of sinks()) sink.write(frame);
  }, periodMs);
  if (unref) timer.unref();
  return () => clearInterval(timer);
}
