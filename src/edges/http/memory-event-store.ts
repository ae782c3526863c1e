/** @module In-memory SSE event store for one HTTP session: bounded per stream, replays after a Last-Event-ID. */

import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';

/** An SSE event id, `<stream no>-<seq>`. */
export type EventId = string;
/** Names one logical SSE stream of a session (a POST's stream, or the standalone GET stream). */
export type StreamId = string;

/** A priming event only marks a position: it is stored as an empty object and never replayed. */
export type StoredMessage = JsonRpcMessage | Record<string, never>;

export interface MemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped first. Default 1000. */
  maxEventsPerStream?: number;
  /** Streams remembered; the least recently written one is forgotten first. Default 200. */
  maxStreams?: number;
}

interface StoredEvent {
  seq: number;
  message: JsonRpcMessage;
}

interface StreamLog {
  /** Short number naming the stream inside event ids. */
  no: number;
  streamId: StreamId;
  events: StoredEvent[];
}

function isPriming(message: StoredMessage): message is Record<string, never> {
  return !('jsonrpc' in message);
}

/**
 * Event ids look like `<stream no>-<seq>`: they encode the stream they belong to, and `seq` is
 * unique and increasing across all streams of the session (the 2025-11-25 rules).
 *
 * Synchronous on purpose: the session transport stores every event on the hot path, and a
 * synchronous store keeps the order of events equal to the order of sends without a queue.
 */
export class MemoryEventStore {
  readonly #maxEvents: number;
  readonly #maxStreams: number;
  /**
   * Insertion order is recency order: a write moves its stream to the end. The only table: a lookup by stream
   * number (a Last-Event-ID, rare) walks it, at most `maxStreams` entries, so an idle session keeps one map.
   */
  readonly #streams = new Map<StreamId, StreamLog>();
  #nextSeq = 1;
  #nextNo = 1;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#maxEvents = Math.max(1, options.maxEventsPerStream ?? 1000);
    this.#maxStreams = Math.max(1, options.maxStreams ?? 200);
  }

  /** Stores one message (or a priming event, `{}`) and returns its event id. */
  storeEvent(streamId: StreamId, message: StoredMessage): EventId {
    let log = this.#streams.get(streamId);
    if (log === undefined) {
      log = { no: this.#nextNo++, streamId, events: [] };
      this.#streams.set(streamId, log);
      this.#evictStreams();
    } else if (this.#streams.size > 1) {
      this.#streams.delete(streamId);
      this.#streams.set(streamId, log);
    }
    const seq = this.#nextSeq++;
    if (!isPriming(message)) {
      // Most streams carry one event (a request's response): an array made with it is sized for it, where a push
      // onto an empty array reserves room for 17.
      if (log.events.length === 0) log.events = [{ seq, message }];
      else log.events.push({ seq, message });
      if (log.events.length > this.#maxEvents) log.events.splice(0, log.events.length - this.#maxEvents);
    }
    return `${log.no}-${seq}`;
  }

  getStreamIdForEventId(eventId: EventId): StreamId | undefined {
    return this.#lookup(eventId)?.log.streamId;
  }

  /** Hands `send` every kept event of the id's stream that came after it; throws for an unknown id. */
  replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JsonRpcMessage) => void }): StreamId {
    const found = this.#lookup(lastEventId);
    if (found === undefined) throw new Error(`unknown event id ${JSON.stringify(lastEventId)}`);
    const { log, seq } = found;
    for (const event of log.events.slice()) {
      if (event.seq > seq) send(`${log.no}-${event.seq}`, event.message);
    }
    return log.streamId;
  }

  /** Number of messages kept for a stream (for tests and diagnostics). */
  size(streamId: StreamId): number {
    return this.#streams.get(streamId)?.events.length ?? 0;
  }

  #lookup(eventId: EventId): { log: StreamLog; seq: number } | undefined {
    const match = /^(\d+)-(\d+)$/.exec(eventId);
    if (match === null) return undefined;
    const no = Number(match[1]);
    for (const log of this.#streams.values()) if (log.no === no) return { log, seq: Number(match[2]) };
    return undefined;
  }

  #evictStreams(): void {
    while (this.#streams.size > this.#maxStreams) {
      const oldest = this.#streams.values().next().value;
      if (oldest === undefined) return;
      this.#streams.delete(oldest.streamId);
    }
  }
}
