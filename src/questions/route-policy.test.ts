/** @module Tests of the question policy lookup and of the capabilities declared for an operator. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QuestionPolicy, withOperatorCapabilities } from './route-policy.js';

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

const DEFAULT_ANSWERERS = { sampling: 'host', consent: 'host' } as const;

test('by default an operator adds form elicitation only, per revision, never removing what the host declared', () => {
  assert.deepEqual(withOperatorCapabilities({}, '2025-11-25', DEFAULT_ANSWERERS), { elicitation: { form: {} } });
  assert.deepEqual(withOperatorCapabilities({ elicitation: { form: {} }, roots: { listChanged: true } }, '2025-11-25', DEFAULT_ANSWERERS), {
    elicitation: { form: {} },
    roots: { listChanged: true },
  });
  assert.deepEqual(withOperatorCapabilities({ elicitation: { url: {} }, sampling: {} }, '2025-11-25', DEFAULT_ANSWERERS), { elicitation: { url: {}, form: {} }, sampling: {} });
  assert.deepEqual(withOperatorCapabilities({}, '2025-06-18', DEFAULT_ANSWERERS), { elicitation: {} });
  assert.deepEqual(withOperatorCapabilities({ sampling: { tools: {} } }, '2025-03-26', DEFAULT_ANSWERERS), { sampling: { tools: {} } });
});

test('questions.sampling: operator adds plain sampling; questions.consent: operator adds URL elicitation (2025-11-25)', () => {
  assert.deepEqual(withOperatorCapabilities({}, '2025-11-25', { sampling: 'operator', consent: 'host' }), { elicitation: { form: {} }, sampling: {} });
  assert.deepEqual(withOperatorCapabilities({}, '2025-11-25', { sampling: 'host', consent: 'operator' }), { elicitation: { form: {}, url: {} } });
  assert.deepEqual(withOperatorCapabilities({}, '2025-06-18', { sampling: 'operator', consent: 'operator' }), { elicitation: {}, sampling: {} });
  assert.deepEqual(withOperatorCapabilities({ sampling: { tools: {} } }, '2025-11-25', { sampling: 'operator', consent: 'host' }), { sampling: { tools: {} }, elicitation: { form: {} } });
});

test('the policy reads questions.sampling and questions.consent from the config (host when unset)', () => {
  const read = QuestionPolicy.fromConfig({ questions: { approvers: {}, route: 'host-then-operator', timeoutMs: 1000, sampling: 'operator', consent: 'operator' }, upstreams: [] });
  assert.equal(read.sampling, 'operator');
  assert.equal(read.consent, 'operator');
  const unset = new QuestionPolicy({ defaults: { route: 'host-then-operator', timeoutMs: 1 } });
  assert.equal(unset.sampling, 'host');
  assert.equal(unset.consent, 'host');
});
