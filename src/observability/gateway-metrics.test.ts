/** @module Tests that each call of the gateway metrics moves exactly the series it should. */

import { tokenOperator } from '../access/operator-principal.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { OpenRequest } from '../questions/open-request.js';
import { QuestionDesk } from '../questions/desk.js';
import { silentLogger } from '../core/log.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import { makeQuestion } from '../store/testing/question-fixtures.js';
import { createGatewayMetrics } from './gateway-metrics.js';
import { MetricsRegistry } from './metrics.js';
import { sampleValue } from './testing/sample-value.js';

function setup() {
  const registry = new MetricsRegistry();
  return { registry, metrics: createGatewayMetrics(registry), value: async (series: string) => sampleValue(await registry.render(), series) };
}

const CREATED = '2026-03-01T09:00:00.000Z';
const after = (seconds: number) => new Date(Date.parse(CREATED) + seconds * 1000).toISOString();

test('a question opened then settled: counted by its final state, its answer time observed, the open gauge back to 0', async () => {
  const { metrics, value } = setup();
  assert.equal(await value('switchboard_questions_open{audience="host"}'), 0, 'every audience is shown from the start');
  const question = makeQuestion({ createdAt: CREATED });
  const other = makeQuestion({ createdAt: CREATED, audience: 'operator', route: 'operator', state: 'delivered' });
  metrics.questionOpened(question);
  metrics.questionOpened(other);
  assert.equal(await value('switchboard_questions_open{audience="host"}'), 1);
  assert.equal(await value('switchboard_questions_open{audience="operator"}'), 1);

  metrics.questionSettled({ ...question, state: 'answered', answeredBy: { kind: 'host', sessionId: 'h' }, settledAt: after(2), updatedAt: after(2) });
  assert.equal(await value('switchboard_questions_open{audience="host"}'), 0);
  assert.equal(await value('switchboard_questions_open{audience="operator"}'), 1);
  assert.equal(await value('switchboard_questions_total{method="elicitation/create",route="host-then-operator",audience="host",state="answered"}'), 1);
  const series = (le: string) => `switchboard_question_answer_seconds_bucket{le="${le}",method="elicitation/create",answered_by="host"}`;
  assert.equal(await value(series('1')), 0);
  assert.equal(await value(series('2.5')), 1);
  assert.equal(await value(series('+Inf')), 1);
  assert.equal(await value('switchboard_question_answer_seconds_sum{method="elicitation/create",answered_by="host"}'), 2);

  metrics.questionSettled({ ...other, state: 'expired', answeredBy: { kind: 'gateway', reason: 'expired' }, settledAt: after(600) });
  assert.equal(await value('switchboard_questions_open{audience="operator"}'), 0);
  assert.equal(await value('switchboard_questions_total{method="elicitation/create",route="operator",audience="operator",state="expired"}'), 1);
  assert.equal(await value('switchboard_question_answer_seconds_count{method="elicitation/create",answered_by="gateway"}'), 1);
});

test('opening a question again moves it to its new audience once; records in the wrong state are ignored', async () => {
  const { registry, metrics, value } = setup();
  const question = makeQuestion();
  metrics.questionOpened(question);
  metrics.questionOpened(question);
  assert.equal(await value('switchboard_questions_open{audience="host"}'), 1, 'the same question is counted once');
  metrics.questionOpened({ ...question, state: 'delivered', audience: 'both' });
  assert.equal(await value('switchboard_questions_open{audience="host"}'), 0);
  assert.equal(await value('switchboard_questions_open{audience="both"}'), 1);

  metrics.questionSettled({ ...question, state: 'delivered' }); // not settled: ignored
  metrics.questionOpened({ ...question, state: 'cancelled' }); // not open: ignored
  assert.equal(await value('switchboard_questions_open{audience="both"}'), 1);
  assert.doesNotMatch(await registry.render(), /^switchboard_questions_total\{/m);

  // settled without having been seen open (e.g. wired late): counted, and the gauge does not go negative
  metrics.questionSettled(makeQuestion({ state: 'abandoned', audience: 'host', createdAt: CREATED, updatedAt: after(1) }));
  assert.equal(await value('switchboard_questions_open{audience="host"}'), 0);
  assert.equal(await value('switchboard_questions_total{method="elicitation/create",route="host-then-operator",audience="host",state="abandoned"}'), 1);
  assert.equal(await value('switchboard_question_answer_seconds_sum{method="elicitation/create",answered_by="none"}'), 1);
});

test('a settlement time before the creation time (a clock step) is not observed, but the question is still counted', async () => {
  const { metrics, value } = setup();
  metrics.questionSettled(makeQuestion({ state: 'answered', createdAt: after(10), settledAt: CREATED, answeredBy: { kind: 'operator', name: 'al' } }));
  assert.equal(await value('switchboard_questions_total{method="elicitation/create",route="host-then-operator",audience="host",state="answered"}'), 1);
  assert.equal(await value('switchboard_question_answer_seconds_count{method="elicitation/create",answered_by="operator"}'), undefined);
});

test('questionChanged wired to desk events follows a question from creation to its end', async () => {
  const { metrics, value } = setup();
  const desk = new QuestionDesk({ store: new MemoryQuestionStore(), logger: silentLogger, operatorAvailable: true });
  desk.subscribe((event) => metrics.questionChanged(event.question));
  const request: OpenRequest = {
    method: 'elicitation/create',
    params: { message: 'Ticket?', requestedSchema: { type: 'object', properties: {} } },
    origin: { upstream: 'desk' },
    route: 'operator',
    timeoutMs: 60_000,
    checkOperatorAnswer: (answer) => ({ ok: true, answer }),
  };
  const opened = (await desk.open(request))?.record;
  assert.ok(opened);
  assert.equal(await value('switchboard_questions_open{audience="operator"}'), 1);
  assert.ok((await desk.answer(opened.id, { action: 'decline' }, tokenOperator('alice'))).ok);
  assert.equal(await value('switchboard_questions_open{audience="operator"}'), 0);
  assert.equal(await value('switchboard_questions_total{method="elicitation/create",route="operator",audience="operator",state="declined"}'), 1);
  assert.equal(await value('switchboard_question_answer_seconds_count{method="elicitation/create",answered_by="operator"}'), 1);
  await desk.close();
});

test('upstream requests are counted by outcome and timed by upstream and method', async () => {
  const { metrics, value } = setup();
  metrics.upstreamRequest('desk', 'tools/call', 0.02, 'ok');
  metrics.upstreamRequest('desk', 'tools/call', 3, 'timeout');
  metrics.upstreamRequest('desk', 'tools/list', 0.001, 'error');
  assert.equal(await value('switchboard_upstream_requests_total{upstream="desk",method="tools/call",outcome="ok"}'), 1);
  assert.equal(await value('switchboard_upstream_requests_total{upstream="desk",method="tools/call",outcome="timeout"}'), 1);
  assert.equal(await value('switchboard_upstream_requests_total{upstream="desk",method="tools/list",outcome="error"}'), 1);
  assert.equal(await value('switchboard_upstream_request_seconds_bucket{le="0.025",upstream="desk",method="tools/call"}'), 1);
  assert.equal(await value('switchboard_upstream_request_seconds_bucket{le="2.5",upstream="desk",method="tools/call"}'), 1);
  assert.equal(await value('switchboard_upstream_request_seconds_bucket{le="5",upstream="desk",method="tools/call"}'), 2);
  assert.equal(await value('switchboard_upstream_request_seconds_sum{upstream="desk",method="tools/call"}'), 3.02);
});

test('host sessions by transport, and upstreams up or down', async () => {
  const { metrics, value } = setup();
  metrics.sessionOpened('streamable-http');
  metrics.sessionOpened('streamable-http');
  metrics.sessionOpened('stdio');
  metrics.sessionClosed('streamable-http');
  assert.equal(await value('switchboard_host_sessions_active{transport="streamable-http"}'), 1);
  assert.equal(await value('switchboard_host_sessions_active{transport="stdio"}'), 1);
  metrics.upstreamState('desk', true);
  metrics.upstreamState('remote', true);
  metrics.upstreamState('remote', false);
  assert.equal(await value('switchboard_upstreams_up{upstream="desk"}'), 1);
  assert.equal(await value('switchboard_upstreams_up{upstream="remote"}'), 0);
});

test('host sessions open, closed to make room and refused under the session caps, by kind', async () => {
  const { metrics, value } = setup();
  metrics.sessionCounted('sse', 1);
  metrics.sessionCounted('sse', 1);
  metrics.sessionCounted('stand-in', 1);
  metrics.sessionCounted('sse', -1);
  assert.equal(await value('switchboard_host_sessions_open{kind="sse"}'), 1);
  assert.equal(await value('switchboard_host_sessions_open{kind="stand-in"}'), 1);
  metrics.sessionEvicted('sse');
  metrics.sessionEvicted('sse');
  metrics.sessionRefused('stand-in');
  assert.equal(await value('switchboard_host_sessions_evicted_total{kind="sse"}'), 2);
  assert.equal(await value('switchboard_host_sessions_refused_total{kind="stand-in"}'), 1);
  assert.equal(await value('switchboard_host_sessions_refused_total{kind="sse"}'), undefined);
});

test('a hostile upstream name is escaped and cannot grow the series without bound', async () => {
  const { registry, metrics, value } = setup();
  metrics.upstreamRequest('ev"il\\\nname', 'tools/call', 0.01, 'ok');
  assert.equal(await value('switchboard_upstream_requests_total{upstream="ev\\"il\\\\\\nname",method="tools/call",outcome="ok"}'), 1);
  for (let i = 0; i < 3000; i += 1) metrics.upstreamRequest(`u${i}`, 'tools/call', 0.01, 'ok');
  const lines = (await registry.render()).split('\n');
  assert.equal(lines.filter((l) => l.startsWith('switchboard_upstream_requests_total{')).length, 1001);
  assert.equal(await value('switchboard_upstream_requests_total{upstream="other",method="other",outcome="other"}'), 2001);
});
