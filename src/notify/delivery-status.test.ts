/** @module Tests of the delivery status operators see, read from a question's audit trail: per target and event, the last attempt's outcome. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { AuditEntry } from '../questions/question.js';
import { deliveryStatus } from './delivery-status.js';

const line = (at: string, action: string, detail?: AuditEntry['detail']): AuditEntry => ({ questionId: 'q-1', at: `2026-03-01T09:00:0${at}.000Z`, actor: 'gateway', action, ...(detail ? { detail } : {}) });

test('per target and event: sent after a retry, failed for good, still retrying; other lines ignored', () => {
  const audit = [
    line('0', 'created'),
    line('1', 'notify-failed', { target: 'hook', event: 'question.waiting', eventId: 'evt_1', attempt: 1, status: 500, error: 'HTTP 500', retryInMs: 1000 }),
    line('2', 'notify-sent', { target: 'hook', event: 'question.waiting', eventId: 'evt_1', attempt: 2, status: 200 }),
    line('3', 'notify-failed', { target: 'slack', event: 'question.waiting', eventId: 'evt_1', attempt: 1, status: 404, error: 'HTTP 404: no_service' }),
    line('4', 'answered'),
    line('5', 'notify-failed', { target: 'hook', event: 'question.answered', eventId: 'evt_2', attempt: 1, error: 'connection refused', retryInMs: 1000 }),
  ];
  assert.deepEqual(deliveryStatus(audit), [
    { target: 'hook', event: 'question.waiting', eventId: 'evt_1', state: 'sent', attempts: 2, status: 200, at: '2026-03-01T09:00:02.000Z' },
    { target: 'slack', event: 'question.waiting', eventId: 'evt_1', state: 'failed', attempts: 1, status: 404, error: 'HTTP 404: no_service', at: '2026-03-01T09:00:03.000Z' },
    { target: 'hook', event: 'question.answered', eventId: 'evt_2', state: 'retrying', attempts: 1, error: 'connection refused', at: '2026-03-01T09:00:05.000Z' },
  ]);
});

test('damaged notify lines (no target, no event, wrong types) are skipped, not thrown on', () => {
  const audit = [line('1', 'notify-sent', { event: 'question.waiting' }), line('2', 'notify-sent', { target: 7, event: 'x' }), line('3', 'notify-failed'), line('4', 'notify-sent', { target: 't', event: 'question.waiting', attempt: 'two' })];
  assert.deepEqual(deliveryStatus(audit), [{ target: 't', event: 'question.waiting', state: 'sent', attempts: 1, at: '2026-03-01T09:00:04.000Z' }]);
});

test('a delivery dropped by a full queue: failed after 0 attempts', () => {
  const audit = [line('1', 'notify-failed', { target: 'hook', event: 'question.waiting', attempt: 0, error: 'the delivery queue is full (1000 held)' })];
  assert.deepEqual(deliveryStatus(audit), [{ target: 'hook', event: 'question.waiting', state: 'failed', attempts: 0, error: 'the delivery queue is full (1000 held)', at: '2026-03-01T09:00:01.000Z' }]);
});
