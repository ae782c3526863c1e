/** @module In-memory SSE event store for one HTTP session: bounded per stream, replays after a Last-Event-ID. */

import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

export interface MemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped first. Default 1000. */
  maxEventsPerStream?: number;
  /** Streams remembered; the least recently written one is forgotten first. Default 200. */
  maxStreams?: number;
}

interface StoredEvent {
  seq: number;
  message: JSONRPCMessage;
}

interface StreamLog {
  /** Short number naming the stream inside event ids. */
  no: number;
  streamId: StreamId;
  events: StoredEvent[];
}

/** A priming event (SDK: an empty object, sent as `data:` with nothing) only marks a position. */
function isPriming(message: JSONRPCMessage): boolean {
  return !('jsonrpc' in message);
}

/**
 * Event ids look like `<stream no>-<seq>`: they encode the stream they belong to, and `seq` is
 * unique and increasing across all streams of the session (the 2025-11-25 rules).
 */
export class MemoryEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxStreams: number;
  /** Insertion order is recency order: a write moves its stream to the end. */
  readonly #streams = new Map<StreamId, StreamLog>();
  readonly #byNo = new Map<number, StreamLog>();
  #nextSeq = 1;
  #nextNo = 1;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#maxEvents = Math.max(1, options.maxEventsPerStream ?? 1000);
    this.#maxStreams = Math.max(1, options.maxStreams ?? 200);
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    let log = this.#streams.get(streamId);
    if (log === undefined) {
      log = { no: this.#nextNo++, streamId, events: [] };
      this.#byNo.set(log.no, log);
    } else {
      this.#streams.delete(streamId);
    }
    this.#streams.set(streamId, log);
    this.#evictStreams();
    const seq = this.#nextSeq++;
    if (!isPriming(message)) {
      log.events.push({ seq, message });
      if (log.events.length > this.#maxEvents) log.events.splice(0, log.events.length - this.#maxEvents);
    }
    return `${log.no}-${seq}`;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#lookup(eventId)?.log.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const found = this.#lookup(lastEventId);
    if (found === undefined) throw new Error(`unknown event id ${JSON.stringify(lastEventId)}`);
    const { log, seq } = found;
    for (const event of log.events.slice()) {
      if (event.seq > seq) await send(`${log.no}-${event.seq}`, event.message);
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
    const log = this.#byNo.get(Number(match[1]));
    return log === undefined ? undefined : { log, seq: Number(match[2]) };
  }

  #evictStreams(): void {
    while (this.#streams.size > this.#maxStreams) {
      const oldest = this.#streams.values().next().value;
      if (oldest === undefined) return;
      this.#streams.delete(oldest.streamId);
      this.#byNo.delete(oldest.no);
    }
  }
}
