/** @module Tests of the question policy lookup and of the capabilities declared for an operator. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QuestionPolicy, withOperatorCapabilities } from './question-policy.js';

const policy = new QuestionPolicy({
  defaults: { route: 'host-then-operator', timeoutMs: 300_000 },
  upstreams: {
    desk: { route: 'host', tools: { restart_service: { route: 'operator', timeoutMs: 60_000 } } },
    llm: { timeoutMs: 10_000 },
  },
});

test('a tool setting beats its upstream, which beats the default; unset fields fall through', () => {
  assert.deepEqual(policy.for('desk', 'restart_service'), { route: 'operator', timeoutMs: 60_000 });
  assert.deepEqual(policy.for('desk', 'summarize'), { route: 'host', timeoutMs: 300_000 });
  assert.deepEqual(policy.for('desk'), { route: 'host', timeoutMs: 300_000 });
  assert.deepEqual(policy.for('llm', 'x'), { route: 'host-then-operator', timeoutMs: 10_000 });
  assert.deepEqual(policy.for('unknown'), { route: 'host-then-operator', timeoutMs: 300_000 });
});

test('an upstream routed to its hosts only still gets operator capabilities when one of its tools routes elsewhere', () => {
  assert.equal(policy.operatorMayAnswer('desk'), true);
  assert.equal(new QuestionPolicy({ defaults: { route: 'host', timeoutMs: 1 } }).operatorMayAnswer('desk'), false);
  assert.equal(policy.operatorMayAnswer('llm'), true);
});

test('operator capabilities per revision are added to the host’s, never removing any', () => {
  assert.deepEqual(withOperatorCapabilities({}, '2025-11-25'), { elicitation: { form: {}, url: {} }, sampling: {} });
  assert.deepEqual(withOperatorCapabilities({ elicitation: { form: {} }, roots: { listChanged: true } }, '2025-11-25'), {
    elicitation: { form: {}, url: {} },
    roots: { listChanged: true },
    sampling: {},
  });
  assert.deepEqual(withOperatorCapabilities({}, '2025-06-18'), { elicitation: {}, sampling: {} });
  assert.deepEqual(withOperatorCapabilities({ sampling: { tools: {} } }, '2025-03-26'), { sampling: { tools: {} } });
});
