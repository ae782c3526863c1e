/** @module GET /api/questions/events: the desk's live events as Server-Sent Events, with keep-alive comments and cleanup on disconnect. */

import type { OperatorDesk, QuestionEvent } from '../../questions/operator-desk.js';
import type { QuestionRecord } from '../../questions/question.js';
import type { QuestionView } from './api-schemas.js';
import { SseConnection } from '../http/sse-connection.js';
import { sseJsonEvent, startSseKeepAlive } from '../http/sse-frame.js';
import { API_HEADERS } from './operator-errors.js';
import { toQuestionView } from './question-view.js';

export const DEFAULT_KEEP_ALIVE_MS = 15_000;

export interface EventStreamOptions {
  desk: OperatorDesk;
  now: () => Date;
  keepAliveMs: number;
  /** Called once when the stream ends, whoever ends it. */
  onEnd?: () => void;
  /** Which questions this stream's operator may see (default: all). */
  visible?: (question: QuestionRecord) => boolean;
  /** The question as sent (default: toQuestionView); events leave in the order they happened even when it is slow. */
  view?: (question: QuestionRecord) => Promise<QuestionView> | QuestionView;
}

export interface OpenEventStream {
  response: Response;
  /** Ends the stream from our side (shutdown). */
  end(): void;
}

/** The client's reconnection delay, sent with the first event. */
const RETRY_MS = 2000;

/**
 * Subscribes to the desk and answers with the stream. The first event is `ready` (with the server's time, so the
 * console can show deadlines without trusting its own clock); the client lists the questions after it, so nothing
 * that happened between its list and its subscription is missed.
 */
export function openEventStream({ desk, now, keepAliveMs, onEnd, visible = () => true, view = toQuestionView }: EventStreamOptions): OpenEventStream {
  let ended = false;
  // Runs only once the response exists (the client leaving, or end()), so `stopKeepAlive` and `unsubscribe` are set by then.
  const cleanup = () => {
    if (ended) return;
    ended = true;
    stopKeepAlive();
    unsubscribe();
    onEnd?.();
  };
  const connection = new SseConnection(cleanup);
  connection.write(sseJsonEvent({ serverTime: now().toISOString() }, { event: 'ready', retry: RETRY_MS }));
  let sending: Promise<void> = Promise.resolve();
  const unsubscribe = desk.subscribe((event: QuestionEvent) => {
    if (!visible(event.question)) return;
    sending = sending.then(async () => {
      const question = await view(event.question);
      if (!ended) connection.write(sseJsonEvent({ type: event.type, question }, { event: event.type }));
    }).catch(() => undefined);
  });
  const stopKeepAlive = startSseKeepAlive(() => [connection], { periodMs: keepAliveMs, text: 'keep-alive' });
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
