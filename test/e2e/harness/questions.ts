/** @module e2e/harness/questions: finding server-to-client requests across several open call streams of one host. */
import type { MessageReader, WireMessage } from './sse-reader.js';
import { isRequest } from './tool-results.js';
import { eventually } from './wait.js';

export interface SeenQuestion {
  /** Index, in `streams`, of the stream the question arrived on. */
  readonly stream: number;
  readonly message: WireMessage;
}

/** Every question seen so far on `streams`, with the stream each came on. */
export function questionsOn(streams: readonly MessageReader[]): SeenQuestion[] {
  return streams.flatMap((reader, stream) => reader.seen.filter(isRequest).map((message) => ({ stream, message })));
}

/** Waits (bounded) until `count` questions have arrived across `streams`, wherever they arrived; throws if they do not. */
export async function awaitQuestions(streams: readonly MessageReader[], count: number, timeoutMs = 10_000): Promise<SeenQuestion[]> {
  if (!(await eventually(() => questionsOn(streams).length >= count, timeoutMs))) {
    throw new Error(`expected ${count} questions within ${timeoutMs} ms, saw ${JSON.stringify(questionsOn(streams))}`);
  }
  return questionsOn(streams);
}
