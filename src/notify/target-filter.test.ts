/** @module Tests of which targets want an event: its events list, and the upstream and tool globs. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { wants } from './target-filter.js';
import { target, waitingQuestion } from './testing/records.js';

test('the events it names only', () => {
  assert.equal(wants(target(), 'question.waiting', waitingQuestion()), true);
  assert.equal(wants(target(), 'question.abandoned', waitingQuestion()), false);
  assert.equal(wants(target({ events: ['question.abandoned'] }), 'question.abandoned', waitingQuestion()), true);
});

test('upstream and tool globs; a question no call explains matches no tool list', () => {
  assert.equal(wants(target({ upstreams: ['de*'] }), 'question.waiting', waitingQuestion()), true);
  assert.equal(wants(target({ upstreams: ['ops'] }), 'question.waiting', waitingQuestion()), false);
  assert.equal(wants(target({ tools: ['*restart*'] }), 'question.waiting', waitingQuestion()), true);
  assert.equal(wants(target({ tools: ['deploy'] }), 'question.waiting', waitingQuestion()), false);
  assert.equal(wants(target({ tools: ['*'] }), 'question.waiting', waitingQuestion({ origin: { upstream: 'desk' } })), false);
  assert.equal(wants(target({ upstreams: ['desk'], tools: ['restart_service'] }), 'question.waiting', waitingQuestion()), true);
});
