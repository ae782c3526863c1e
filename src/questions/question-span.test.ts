import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';

import { installTracer } from '../core/tracing/trace-port.js';
import { RecordingTracer } from '../core/tracing/testing/recording-tracer.js';
import type { OpenRequest } from './open-request.js';
import type { QuestionRecord } from './question.js';
import { openQuestionSpan, questionDelivered, questionSettled, withinQuestion } from './question-span.js';

const record = { id: 'q-1', method: 'elicitation/create', route: 'host-then-operator', audience: 'host' } as QuestionRecord;
const request = (trace?: OpenRequest['trace']) => ({ origin: { upstream: 'desk', tool: 'desk_restart', hostSessionId: 'h-1' }, upstreamId: 41, ...(trace ? { trace } : {}) }) as OpenRequest;

describe('the span of a question', () => {
  test('tracing off: no span, and the store writes run as they are', () => {
    assert.equal(openQuestionSpan(request(), record), undefined);
    assert.equal(withinQuestion(undefined, () => 'written'), 'written');
    questionDelivered(undefined, { to: 'host' }, 'h-1');
    questionSettled(undefined, { kind: 'expired' }, { to: 'expired', answeredBy: { kind: 'gateway', reason: 'timed out' }, answer: { action: 'cancel' } });
  });

  describe('tracing on', () => {
    let recording: RecordingTracer;
    let uninstall: () => void;
    beforeEach(() => {
      recording = new RecordingTracer();
      uninstall = installTracer(recording);
    });
    afterEach(() => uninstall());

    test('asked as a child of the upstream request, delivered to the host session, answered by the host', () => {
      const call = recording.startSpan('tools/call restart', { kind: 'client' });
      const span = openQuestionSpan(request(call), record);
      const store = withinQuestion(span, () => recording.startSpan('store create'));
      questionDelivered(span, { to: 'host', hostRequestId: 'sb-1' }, 'h-1');
      questionSettled(span, { kind: 'call-cancelled' }, { to: 'answered', answeredBy: { kind: 'host', sessionId: 'h-1' }, answer: { action: 'accept' } });
      const question = recording.span('elicitation/create desk');
      assert.equal(question.parent, call);
      assert.equal((store as unknown as { parent: unknown }).parent, question);
      assert.deepEqual(question.attributes, {
        'mcp.method.name': 'elicitation/create', 'mcp.target': 'desk', 'switchboard.upstream': 'desk', 'switchboard.question.id': 'q-1',
        'switchboard.question.route': 'host-then-operator', 'switchboard.question.audience': 'host', 'gen_ai.tool.name': 'desk_restart',
        'mcp.session.id': 'h-1', 'jsonrpc.request.id': '41', 'switchboard.question.state': 'answered', 'switchboard.question.answered_by': 'host:h-1',
      });
      assert.deepEqual(question.events.map((event) => event.name), ['question.delivered', 'question.answered']);
      assert.deepEqual(question.events[0]?.attributes, { 'switchboard.question.delivered_to': 'host', 'mcp.session.id': 'h-1', 'switchboard.question.host_key': 'sb-1' });
      assert.equal(question.ended, true);
      assert.equal(question.failed, undefined);
    });

    test('answered by an operator: named; expired: failed with the gateway\'s reason', () => {
      const byOperator = openQuestionSpan(request(), record);
      questionSettled(byOperator, { kind: 'expired' }, { to: 'answered', answeredBy: { kind: 'operator', name: 'alice' }, answer: { action: 'accept' } });
      const expired = openQuestionSpan(request(), { ...record, id: 'q-2' });
      questionSettled(expired, { kind: 'expired' }, { to: 'expired', answeredBy: { kind: 'gateway', reason: 'nobody answered within 5m' }, answer: { action: 'cancel' } });
      const [first, second] = recording.spans;
      assert.equal(first?.attributes['switchboard.question.answered_by'], 'operator:alice');
      assert.equal(first?.attributes['switchboard.question.operator'], 'alice');
      assert.equal(second?.attributes['switchboard.question.answered_by'], 'gateway');
      assert.deepEqual(second?.failed, { message: 'nobody answered within 5m', type: 'expired' });
    });

    test('settled first by another instance: what that one recorded', () => {
      const span = openQuestionSpan(request(), record);
      const elsewhere = { ...record, state: 'declined', answeredBy: { kind: 'host', sessionId: 'h-9' } } as QuestionRecord;
      questionSettled(span, { kind: 'settled-elsewhere', record: elsewhere }, { to: 'expired', answeredBy: { kind: 'gateway', reason: 'x' }, answer: { action: 'cancel' } });
      assert.equal(recording.spans[0]?.attributes['switchboard.question.answered_by'], 'host:h-9');
      assert.equal(recording.spans[0]?.attributes['switchboard.question.state'], 'declined');
    });
  });
});
