/** @module GET /api/questions/events: the desk's live events as Server-Sent Events, with keep-alive comments and cleanup on disconnect. */

import type { OperatorDesk, QuestionEvent } from '../../broker/operator-desk.js';
import { SseConnection } from '../sse-connection.js';
import { API_HEADERS } from './operator-errors.js';
import { toQuestionView } from './question-view.js';

export const DEFAULT_KEEP_ALIVE_MS = 15_000;

export interface EventStreamOptions {
  desk: OperatorDesk;
  now: () => Date;
  keepAliveMs: number;
  /** Called once when the stream ends, whoever ends it. */
  onEnd?: () => void;
}

export interface OpenEventStream {
  response: Response;
  /** Ends the stream from our side (shutdown). */
  end(): void;
}

function sseEvent(type: string, data: unknown): string {
  // JSON.stringify never emits a raw newline, so the data is one `data:` line.
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Subscribes to the desk and answers with the stream. The first event is `ready` (with the server's time, so the
 * console can show deadlines without trusting its own clock); the client lists the questions after it, so nothing
 * that happened between its list and its subscription is missed.
 */
export function openEventStream({ desk, now, keepAliveMs, onEnd }: EventStreamOptions): OpenEventStream {
  let ended = false;
  // Runs only once the response exists (the client leaving, or end()), so `timer` and `unsubscribe` are set by then.
  const cleanup = () => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    unsubscribe();
    onEnd?.();
  };
  const connection = new SseConnection(cleanup);
  connection.write(`retry: 2000\n${sseEvent('ready', { serverTime: now().toISOString() })}`);
  const unsubscribe = desk.subscribe((event: QuestionEvent) => {
    connection.write(sseEvent(event.type, { type: event.type, question: toQuestionView(event.question) }));
  });
  const timer = setInterval(() => connection.write(': keep-alive\n\n'), keepAliveMs);
  const response = new Response(connection.body, {
    status: 200,
    headers: { ...API_HEADERS, 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  });
  return {
    response,
    end() {
      connection.end();
      cleanup();
    },
  };
}
