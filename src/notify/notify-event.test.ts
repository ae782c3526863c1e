/** @module Tests of which desk change makes which webhook event: only a question waiting for operators, only the writer's own change. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { notifyEventOf } from './notify-event.js';
import { waitingQuestion } from './testing/records.js';

test('a question routed to operators only: waiting once delivered, then answered (operator or host), expired or abandoned', () => {
  assert.equal(notifyEventOf({ type: 'created', question: waitingQuestion({ state: 'pending' }) }), undefined, 'not yet in front of anyone');
  assert.equal(notifyEventOf({ type: 'updated', question: waitingQuestion() }), 'question.waiting');
  const settled = (state: 'answered' | 'declined' | 'cancelled' | 'expired' | 'abandoned', answeredBy: NonNullable<ReturnType<typeof waitingQuestion>['answeredBy']>) =>
    notifyEventOf({ type: 'updated', question: waitingQuestion({ state, answeredBy }) });
  assert.equal(settled('answered', { kind: 'operator', name: 'ada' }), 'question.answered');
  assert.equal(settled('declined', { kind: 'operator', name: 'ada' }), 'question.answered');
  assert.equal(settled('cancelled', { kind: 'host', sessionId: 's-1' }), 'question.answered');
  assert.equal(settled('expired', { kind: 'gateway', reason: 'the question expired' }), 'question.expired');
  assert.equal(settled('abandoned', { kind: 'gateway', reason: 'the call was cancelled' }), 'question.abandoned');
  assert.equal(settled('cancelled', { kind: 'gateway', reason: 'nobody can answer' }), 'question.abandoned');
});

test('nothing for a question a host is asked (audience host or both) or nobody is, and nothing for a change another instance made', () => {
  for (const audience of ['host', 'both', 'none'] as const) {
    assert.equal(notifyEventOf({ type: 'updated', question: waitingQuestion({ audience }) }), undefined, audience);
    assert.equal(notifyEventOf({ type: 'updated', question: waitingQuestion({ audience, state: 'answered', answeredBy: { kind: 'host', sessionId: 's' } }) }), undefined, audience);
  }
  assert.equal(notifyEventOf({ type: 'updated', question: waitingQuestion(), elsewhere: true }), undefined);
  assert.equal(notifyEventOf({ type: 'updated', question: waitingQuestion({ state: 'expired' }), elsewhere: true }), undefined);
});
