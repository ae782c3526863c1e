/** @module Tests of the event document: small, stable id per question and event, a link to the question in the console, never an answer. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { eventDocument, eventId, questionLink } from './event-document.js';
import { waitingQuestion } from './testing/records.js';

const AT = new Date('2026-03-01T09:00:01.000Z');

test('a waiting question: id, type, time, the question\'s facts and its console link', () => {
  const document = eventDocument('question.waiting', waitingQuestion(), { at: AT, consoleUrl: 'https://gw.example.com' });
  assert.deepEqual(document, {
    id: eventId('q-1', 'question.waiting'),
    type: 'question.waiting',
    time: '2026-03-01T09:00:01.000Z',
    question: {
      id: 'q-1',
      url: 'https://gw.example.com/console#question/q-1',
      state: 'delivered',
      method: 'elicitation/create',
      upstream: 'desk',
      tool: 'restart_service',
      message: 'Restart payments-api?',
      createdAt: '2026-03-01T09:00:00.000Z',
      deadline: '2026-03-01T09:05:00.000Z',
    },
  });
});

test('the event id is the same for one question and event (receivers dedupe retries and repeats), different otherwise', () => {
  assert.match(eventId('q-1', 'question.waiting'), /^evt_[0-9a-f]{32}$/);
  assert.equal(eventId('q-1', 'question.waiting'), eventId('q-1', 'question.waiting'));
  assert.notEqual(eventId('q-1', 'question.waiting'), eventId('q-1', 'question.answered'));
  assert.notEqual(eventId('q-1', 'question.waiting'), eventId('q-2', 'question.waiting'));
});

test('a settled question names who settled it and when, never the answer given', () => {
  const question = waitingQuestion({ state: 'answered', answer: { action: 'accept', content: { password: 'hunter2' } }, answeredBy: { kind: 'operator', name: 'Ada', subject: 'ada@x', issuer: 'https://id' }, settledAt: '2026-03-01T09:01:00.000Z' });
  const document = eventDocument('question.answered', question, { at: AT });
  assert.deepEqual(document.question.answeredBy, { kind: 'operator', name: 'Ada' });
  assert.equal(document.question.settledAt, '2026-03-01T09:01:00.000Z');
  assert.equal(document.question.url, undefined, 'no link without a console URL');
  assert.doesNotMatch(JSON.stringify(document), /hunter2|ada@x/);
  const byHost = eventDocument('question.answered', waitingQuestion({ state: 'declined', answeredBy: { kind: 'host', sessionId: 's-9' } }), { at: AT });
  assert.deepEqual(byHost.question.answeredBy, { kind: 'host' });
  const expired = eventDocument('question.expired', waitingQuestion({ state: 'expired', answeredBy: { kind: 'gateway', reason: 'the question expired' } }), { at: AT });
  assert.deepEqual(expired.question.answeredBy, { kind: 'gateway', reason: 'the question expired' });
});

test('the message is cut to 300 characters; a sampling or roots question says what it is, without the conversation', () => {
  const long = eventDocument('question.waiting', waitingQuestion({ params: { message: 'x'.repeat(1000) } }), { at: AT });
  assert.equal(long.question.message, `${'x'.repeat(299)}…`);
  const sampling = eventDocument('question.waiting', waitingQuestion({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'private' } }] } }), { at: AT });
  assert.equal(sampling.question.message, 'The upstream asks for a model reply (sampling).');
  const roots = eventDocument('question.waiting', waitingQuestion({ method: 'roots/list', params: {} }), { at: AT });
  assert.equal(roots.question.message, 'The upstream asks which roots (folders) it may work in.');
  const noMessage = eventDocument('question.waiting', waitingQuestion({ params: { message: 42 } }), { at: AT });
  assert.equal(noMessage.question.message, undefined);
});

test('the console link: the base without a trailing slash, the id escaped', () => {
  assert.equal(questionLink('http://127.0.0.1:3939/', 'q-a/b c'), 'http://127.0.0.1:3939/console#question/q-a%2Fb%20c');
  assert.equal(questionLink(undefined, 'q-1'), undefined);
});
