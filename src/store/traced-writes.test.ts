import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';

import { installTracer } from '../core/tracing/trace-port.js';
import { RecordingTracer } from '../core/tracing/testing/recording-tracer.js';
import { tracedWrites } from './traced-writes.js';

class Store {
  #rows = new Map<string, string>();
  async create(row: { id: string; value: string }): Promise<void> {
    this.#rows.set(row.id, row.value);
  }
  async transition(id: string): Promise<void> {
    if (!this.#rows.has(id)) throw new Error(`no row ${id}`);
  }
  async get(id: string): Promise<string | undefined> {
    return this.#rows.get(id);
  }
}

describe('store write spans', () => {
  let uninstall: (() => void) | undefined;
  afterEach(() => uninstall?.());

  test('tracing off: the store itself', () => {
    const store = new Store();
    assert.equal(tracedWrites(store, 'question', 'sqlite', ['create']), store);
  });

  test('a span per write, none per read; a failed write fails its span; private fields still work', async () => {
    const recording = new RecordingTracer();
    uninstall = installTracer(recording);
    const store = tracedWrites(new Store(), 'question', 'sqlite', ['create', 'transition']);
    await store.create({ id: 'q-1', value: 'a' });
    assert.equal(await store.get('q-1'), 'a');
    await assert.rejects(store.transition('q-9'), /no row q-9/);
    assert.deepEqual(recording.spans.map((span) => span.name), ['question create', 'question transition']);
    assert.deepEqual(recording.spans[0]?.attributes, { 'db.system.name': 'sqlite', 'db.operation.name': 'create', 'db.collection.name': 'question', 'switchboard.record.id': 'q-1' });
    assert.equal(recording.spans[0]?.ended, true);
    assert.deepEqual(recording.spans[1]?.failed, { message: 'no row q-9', type: 'store' });
    assert.equal(recording.spans[1]?.ended, true);
  });
});
