/**
 * @module Tests of when the desk waits for the disk: a question put to its host only goes to the host once committed,
 * and the rest waits until it is on disk (its settlement, operators hearing of it); any other question is on disk
 * before anyone hears of it.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { AuditEntry, QuestionRecord, Transition } from './question.js';
import type { QuestionStore } from './question-store.js';
import type { Logger } from '../core/log.js';
import { silentLogger } from '../core/log.js';
import { QuestionDesk } from './desk.js';
import { FakeAsker, fakeHost, formQuestion } from './testing/desk-fakes.js';

const SCHEMA = { type: 'object', properties: { ticket: { type: 'string' } }, required: ['ticket'] };
const ANSWER = { action: 'accept', content: { ticket: 'T-1' } };

/** A store fake (records in a map) that can also create a question committed but not yet on disk, the disk being the test's to finish. */
class SlowDiskStore implements QuestionStore {
  readonly committedOnly: string[] = [];
  readonly created: string[] = [];
  readonly records = new Map<string, QuestionRecord>();
  #disk: { resolve: () => void; reject: (error: Error) => void }[] = [];

  async create(record: QuestionRecord): Promise<void> {
    this.created.push(record.id);
    this.records.set(record.id, record);
  }

  async createCommitted(record: QuestionRecord): Promise<{ onDisk: Promise<void> }> {
    this.committedOnly.push(record.id);
    this.records.set(record.id, record);
    return { onDisk: new Promise<void>((resolve, reject) => this.#disk.push({ resolve, reject })) };
  }

  async transition(id: string, transition: Transition): Promise<QuestionRecord | undefined> {
    const record = this.records.get(id);
    if (!record || !transition.from.includes(record.state)) return undefined;
    const next: QuestionRecord = { ...record, state: transition.to, ...(transition.answer ? { answer: transition.answer } : {}), ...(transition.answeredBy ? { answeredBy: transition.answeredBy } : {}) };
    this.records.set(id, next);
    return next;
  }

  async audit(): Promise<void> {}
  async get(id: string): Promise<QuestionRecord | undefined> {
    return this.records.get(id);
  }
  async list(): Promise<QuestionRecord[]> {
    return [...this.records.values()];
  }
  async auditTrail(): Promise<AuditEntry[]> {
    return [];
  }
  async abandonOpen(): Promise<number> {
    return 0;
  }
  async close(): Promise<void> {}

  onDisk(): void {
    for (const write of this.#disk.splice(0)) write.resolve();
  }

  diskFailed(error: Error): void {
    for (const write of this.#disk.splice(0)) write.reject(error);
  }
}

async function turn(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

function setup(logger: Logger = silentLogger) {
  const store = new SlowDiskStore();
  let n = 0;
  const desk = new QuestionDesk({ store, logger, operatorAvailable: true, newId: () => `q-${++n}` });
  const seat = desk.seat(fakeHost());
  const asker = new FakeAsker();
  const events: string[] = [];
  desk.subscribe((event) => events.push(`${event.type}:${event.question.state}`));
  return { store, desk, seat, asker, events };
}

test('a question put to its host only is opened once committed, without waiting for the disk', async () => {
  const { store, desk, seat, asker } = setup();
  const opened = await desk.open(formQuestion(seat, asker, SCHEMA, { route: 'host' }));
  assert.ok(opened);
  assert.equal(opened.hostKey, 'sb-1', 'the host can be sent it now');
  assert.equal(opened.record.state, 'delivered');
  assert.deepEqual(store.committedOnly, ['q-1']);
  assert.deepEqual(store.created, []);
  assert.equal((await store.get('q-1'))?.state, 'delivered', 'committed: a crash of the process cannot lose it');
});

test('its settlement is written, and the asker answered, only once its creation is on disk', async () => {
  const { store, desk, seat, asker } = setup();
  await desk.open(formQuestion(seat, asker, SCHEMA, { route: 'host' }));
  const settling = desk.settle('q-1', { kind: 'host-answer', message: { jsonrpc: '2.0', id: 'sb-1', result: ANSWER }, checked: ANSWER });
  await turn();
  assert.equal((await store.get('q-1'))?.state, 'delivered', 'nothing written before the creation is on disk');
  assert.deepEqual(asker.replies, []);
  store.onDisk();
  assert.equal(await settling, true);
  assert.equal((await store.get('q-1'))?.state, 'answered');
  assert.deepEqual(asker.replies, [{ id: 41, result: ANSWER, answeredBy: 'the host' }]);
});

test('operators hear of it only once it is on disk', async () => {
  const { store, desk, seat, asker, events } = setup();
  await desk.open(formQuestion(seat, asker, SCHEMA, { route: 'host' }));
  await turn();
  assert.deepEqual(events, []);
  store.onDisk();
  await turn();
  assert.deepEqual(events, ['created:pending', 'updated:delivered']);
});

test('a question shown to operators (audience both or operator) is on disk before open resolves or anyone hears of it', async () => {
  for (const route of ['both', 'operator'] as const) {
    const { store, desk, seat, asker, events } = setup();
    const opened = await desk.open(formQuestion(seat, asker, SCHEMA, { route }));
    assert.equal(opened?.record.audience, route);
    assert.deepEqual(store.created, ['q-1'], `route ${route}: created on disk`);
    assert.deepEqual(store.committedOnly, []);
    assert.deepEqual(events, ['created:pending', 'updated:delivered']);
  }
});

test('a question not sent to the host at once (no delivery) is created on disk as before', async () => {
  const { store, desk, seat, asker } = setup();
  const question = formQuestion(seat, asker, SCHEMA, { route: 'host' });
  delete question.delivery;
  await desk.open(question);
  assert.deepEqual(store.created, ['q-1']);
  assert.deepEqual(store.committedOnly, []);
});

test('a creation that cannot be synced is logged; the settlement is then recorded as failed and still carried out', async () => {
  const lines: string[] = [];
  const logger: Logger = { ...silentLogger, log: (level, message) => void lines.push(`${level}: ${message}`) };
  const { store, desk, seat, asker, events } = setup(logger);
  await desk.open(formQuestion(seat, asker, SCHEMA, { route: 'host' }));
  store.diskFailed(new Error('EIO'));
  await turn();
  assert.ok(lines.some((line) => /^error: question q-1 could not be synced to disk: EIO/.test(line)), lines.join('\n'));
  assert.deepEqual(events, [], 'operators never hear of a question not on disk');
  assert.equal(await desk.settle('q-1', { kind: 'host-answer', message: { jsonrpc: '2.0', id: 'sb-1', result: ANSWER }, checked: ANSWER }), true);
  assert.ok(lines.some((line) => /^error: could not record the settlement of question q-1/.test(line)), lines.join('\n'));
  assert.deepEqual(asker.replies, [{ id: 41, result: ANSWER, answeredBy: 'the host' }], 'the asker is not left waiting');
});
