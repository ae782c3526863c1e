/** @module Tests of the notifier against a real receiver on loopback: what is sent for which desk change, signed, retried and audited; targets swapped live; close flushes then gives up. */

import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import type { NotifyTarget } from '../config/types.js';
import { captureLog } from '../core/testing/capture-log.js';
import { eventually } from '../core/testing/deadlines.js';
import type { AuditEntry } from '../questions/question.js';
import { eventId } from './event-document.js';
import { Notifier } from './notifier.js';
import type { NotifierOptions } from './notifier.js';
import { signatureOf } from './signature.js';
import { startReceiver } from './testing/receiver.js';
import type { Receiver } from './testing/receiver.js';
import { target, waitingQuestion } from './testing/records.js';

const SECRET = 'a-secret-of-enough-length';
const receivers: Receiver[] = [];
after(() => Promise.all(receivers.map((receiver) => receiver.close())));

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

function notifier(targets: NotifyTarget[], options: Partial<NotifierOptions> = {}) {
  const audit: Omit<AuditEntry, 'at'>[] = [];
  const log = captureLog();
  const attempts: string[] = [];
  const made = new Notifier({
    targets,
    audit: async (entry) => {
      audit.push(entry);
    },
    logger: log.logger,
    consoleUrl: 'http://gw.test:3939',
    retryDelayMs: () => 20,
    metrics: { attempt: (name, event, outcome) => attempts.push(`${name} ${event} ${outcome}`), dropped: (name) => attempts.push(`${name} dropped`) },
    ...options,
  });
  return { notifier: made, audit, log: log.entries, attempts };
}

test('a question waiting for operators: one signed JSON POST with the event headers, audited as sent', async () => {
  const hook = await receiver();
  const { notifier: n, audit } = notifier([target({ url: `${hook.url}/hook`, secret: SECRET, headers: { Authorization: 'Bearer tok' } })]);
  n.handle({ type: 'updated', question: waitingQuestion() });
  await eventually(() => audit.length === 1, 'the attempt is audited');
  const [request] = hook.received;
  assert.ok(request);
  const document = JSON.parse(request.body) as { id: string; type: string; question: { url: string } };
  assert.equal(document.id, eventId('q-1', 'question.waiting'));
  assert.equal(document.type, 'question.waiting');
  assert.equal(document.question.url, 'http://gw.test:3939/console#question/q-1');
  assert.equal(request.headers['x-switchboard-signature'], signatureOf(request.body, SECRET));
  assert.equal(request.headers['x-switchboard-event'], 'question.waiting');
  assert.equal(request.headers['x-switchboard-event-id'], document.id);
  assert.equal(request.headers['x-switchboard-attempt'], '1');
  assert.equal(request.headers['authorization'], 'Bearer tok');
  assert.equal(request.headers['content-type'], 'application/json');
  assert.deepEqual(audit, [{ questionId: 'q-1', actor: 'gateway', action: 'notify-sent', detail: { target: 'hook', event: 'question.waiting', eventId: document.id, attempt: 1, status: 200 } }]);
  await n.close(0);
});

test('a 500 then a 200: retried, both attempts audited and counted, the body and event id the same', async () => {
  const hook = await receiver((index) => (index === 0 ? { status: 500, body: 'down' } : { status: 202 }));
  const { notifier: n, audit, attempts } = notifier([target({ url: hook.url })]);
  n.handle({ type: 'updated', question: waitingQuestion() });
  await eventually(() => audit.length === 2, 'two attempts audited');
  assert.deepEqual(audit.map((line) => [line.action, line.detail?.['attempt'], line.detail?.['status']]), [['notify-failed', 1, 500], ['notify-sent', 2, 202]]);
  assert.equal(audit[0]?.detail?.['error'], 'HTTP 500: down');
  assert.equal(audit[0]?.detail?.['retryInMs'], 20);
  assert.equal(hook.received[0]?.body, hook.received[1]?.body);
  assert.deepEqual(hook.received.map((r) => r.headers['x-switchboard-attempt']), ['1', '2']);
  assert.deepEqual(attempts, ['hook question.waiting retry', 'hook question.waiting sent']);
  await n.close(0);
});

test('a 4xx is not retried; the last attempt failing is given up; both logged as warnings without the URL or secret', async () => {
  const gone = await receiver(() => ({ status: 410, body: 'channel_is_archived' }));
  const down = await receiver(() => ({ status: 503 }));
  const { notifier: n, audit, log } = notifier([target({ name: 'gone', url: `${gone.url}/SECRET-PATH`, secret: SECRET }), target({ name: 'down', url: down.url, attempts: 2 })]);
  n.handle({ type: 'updated', question: waitingQuestion() });
  await eventually(() => audit.length === 3, 'three attempts audited');
  assert.equal(gone.received.length, 1);
  assert.equal(down.received.length, 2);
  const last = (name: string) => audit.filter((line) => line.detail?.['target'] === name).at(-1)?.detail;
  assert.deepEqual(last('gone'), { target: 'gone', event: 'question.waiting', eventId: eventId('q-1', 'question.waiting'), attempt: 1, status: 410, error: 'HTTP 410: channel_is_archived' });
  assert.equal(last('down')?.['retryInMs'], undefined, 'given up: no retry announced');
  const warnings = log.filter((entry) => entry.level === 'warn');
  assert.equal(warnings.length, 2);
  assert.doesNotMatch(JSON.stringify(log), /SECRET-PATH|a-secret-of-enough-length/);
  await n.close(0);
});

test('each desk change once: a repeat of an event is not sent again; nothing for host questions or changes made elsewhere; filters apply', async () => {
  const hook = await receiver();
  const { notifier: n, audit } = notifier([target({ url: hook.url, events: ['question.waiting', 'question.expired'] }), target({ name: 'ops-only', url: hook.url, upstreams: ['ops'] })]);
  n.handle({ type: 'created', question: waitingQuestion({ state: 'pending' }) });
  n.handle({ type: 'updated', question: waitingQuestion() });
  n.handle({ type: 'updated', question: waitingQuestion() });
  n.handle({ type: 'updated', question: waitingQuestion({ id: 'q-host', audience: 'host' }) });
  n.handle({ type: 'updated', question: waitingQuestion({ id: 'q-2', state: 'expired' }), elsewhere: true });
  n.handle({ type: 'updated', question: waitingQuestion({ state: 'answered', answeredBy: { kind: 'operator', name: 'ada' } }) });
  n.handle({ type: 'updated', question: waitingQuestion({ state: 'expired' }) });
  await eventually(() => audit.length === 2, 'two deliveries');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(hook.received.map((r) => r.headers['x-switchboard-event']), ['question.waiting', 'question.expired']);
  await n.close(0);
});

test('slack format: text and blocks; the JSON document\'s id travels in the header', async () => {
  const hook = await receiver();
  const { notifier: n, audit } = notifier([target({ format: 'slack', url: hook.url })]);
  n.handle({ type: 'updated', question: waitingQuestion() });
  await eventually(() => audit.length === 1, 'sent');
  const body = JSON.parse(hook.received[0]?.body ?? '{}') as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['blocks', 'text']);
  assert.equal(hook.received[0]?.headers['x-switchboard-event-id'], eventId('q-1', 'question.waiting'));
  await n.close(0);
});

test('setTargets: later events go to the new list; a delivery under way keeps its target', async () => {
  const first = await receiver();
  const second = await receiver();
  const { notifier: n, audit } = notifier([target({ name: 'first', url: first.url })]);
  n.handle({ type: 'updated', question: waitingQuestion() });
  await eventually(() => audit.length === 1, 'first sent');
  n.setTargets([target({ name: 'second', url: second.url })]);
  n.handle({ type: 'updated', question: waitingQuestion({ state: 'expired' }) });
  await eventually(() => audit.length === 2, 'second sent');
  assert.equal(first.received.length, 1);
  assert.deepEqual(second.received.map((r) => r.headers['x-switchboard-event']), ['question.expired']);
  await n.close(0);
});

test('a full queue drops the delivery: audited as failed, logged, counted', async () => {
  const slow = await receiver(() => ({ status: 200, delayMs: 300 }));
  const { notifier: n, audit, attempts, log } = notifier([target({ url: slow.url })], { capacity: 1, concurrency: 1 });
  n.handle({ type: 'updated', question: waitingQuestion() });
  n.handle({ type: 'updated', question: waitingQuestion({ id: 'q-2' }) });
  await eventually(() => audit.length === 2, 'both audited');
  const dropped = audit.find((line) => line.questionId === 'q-2');
  assert.equal(dropped?.action, 'notify-failed');
  assert.equal(dropped?.detail?.['error'], 'the delivery queue is full (1 held)');
  assert.ok(attempts.includes('hook dropped'));
  assert.ok(log.some((entry) => entry.level === 'warn' && /queue is full/.test(entry.message)));
  await n.close(0);
});

test('close: a delivery that ends within the flush time ends; one still retrying is given up, audited and logged once', async () => {
  const down = await receiver(() => ({ status: 500 }));
  const { notifier: n, audit, log } = notifier([target({ url: down.url, attempts: 5 })], { retryDelayMs: () => 60_000 });
  n.handle({ type: 'updated', question: waitingQuestion() });
  await eventually(() => audit.length === 1, 'the first attempt failed');
  await n.close(100);
  assert.deepEqual(audit.map((line) => [line.action, line.detail?.['error']]), [['notify-failed', 'HTTP 500'], ['notify-failed', 'the gateway stopped before it could be delivered']]);
  assert.ok(log.some((entry) => entry.level === 'warn' && /gave up 1 webhook deliver/.test(entry.message)), JSON.stringify(log));
  n.handle({ type: 'updated', question: waitingQuestion({ id: 'q-late' }) });
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(audit.length, 2, 'nothing after close');
});
