/** @module Tests for the bounded in-memory SSE event store. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';

import { MemoryEventStore } from './memory-event-store.js';

const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: n } });

async function replay(store: MemoryEventStore, after: string): Promise<{ streamId: string; events: [string, JsonRpcMessage][] }> {
  const events: [string, JsonRpcMessage][] = [];
  const streamId = await store.replayEventsAfter(after, { send: async (id, message) => void events.push([id, message]) });
  return { streamId, events };
}

describe('MemoryEventStore', () => {
  it('replays only the events of the same stream that follow the given id', async () => {
    const store = new MemoryEventStore();
    const a1 = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(100));
    const a2 = await store.storeEvent('a', note(2));
    const a3 = await store.storeEvent('a', note(3));
    const { streamId, events } = await replay(store, a1);
    assert.equal(streamId, 'a');
    assert.deepEqual(events, [[a2, note(2)], [a3, note(3)]]);
    assert.equal(await store.getStreamIdForEventId(a3), 'a');
  });

  it('gives ids that are unique across streams and name their stream', async () => {
    const store = new MemoryEventStore();
    const ids = [await store.storeEvent('a', note(1)), await store.storeEvent('b', note(1)), await store.storeEvent('a', note(2))];
    assert.equal(new Set(ids).size, 3);
    assert.equal(await store.getStreamIdForEventId(ids[1]!), 'b');
  });

  it('keeps a position for priming events without replaying them', async () => {
    const store = new MemoryEventStore();
    const priming = await store.storeEvent('a', {} as JsonRpcMessage);
    const first = await store.storeEvent('a', note(1));
    assert.equal(await store.getStreamIdForEventId(priming), 'a');
    assert.deepEqual((await replay(store, priming)).events, [[first, note(1)]]);
    assert.equal(store.size('a'), 1);
  });

  it('keeps at most maxEventsPerStream events per stream, dropping the oldest', async () => {
    const store = new MemoryEventStore({ maxEventsPerStream: 3 });
    const first = await store.storeEvent('a', note(0));
    for (let i = 1; i < 10; i++) await store.storeEvent('a', note(i));
    assert.equal(store.size('a'), 3);
    const { events } = await replay(store, first);
    assert.deepEqual(events.map(([, m]) => (m as unknown as { params: { progress: number } }).params.progress), [7, 8, 9]);
  });

  it('forgets the least recently written stream beyond maxStreams', async () => {
    const store = new MemoryEventStore({ maxStreams: 2 });
    const a = await store.storeEvent('a', note(1));
    const b = await store.storeEvent('b', note(1));
    await store.storeEvent('a', note(2));
    await store.storeEvent('c', note(1));
    assert.equal(await store.getStreamIdForEventId(b), undefined);
    assert.equal(await store.getStreamIdForEventId(a), 'a');
  });

  it('does not know malformed or foreign event ids', async () => {
    const store = new MemoryEventStore();
    assert.equal(await store.getStreamIdForEventId('nonsense'), undefined);
    assert.equal(await store.getStreamIdForEventId('9-9'), undefined);
    await assert.rejects(replay(store, '9-9'), /unknown event id/);
  });
});
