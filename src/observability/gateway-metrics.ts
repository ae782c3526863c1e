/** @module Switchboard's metrics under stable names, and the typed calls the router and the desk make to update them. */

import type { Audience, QuestionRecord } from '../questions/question.js';
import { OPEN_STATES, SETTLED_STATES } from '../questions/question.js';
import type { UpstreamRequestOutcome } from '../upstream/session.js';
import { registerProcessMetrics } from './process-metrics.js';
import type { MetricsRegistry } from './metrics.js';

/** Upper bounds (seconds) for a request to an upstream: from a fast local tool to a long job. */
export const UPSTREAM_REQUEST_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** Upper bounds (seconds) for answering a question: a host's automatic answer up to a person's hour. */
export const QUESTION_ANSWER_BUCKETS: readonly number[] = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

const AUDIENCES: readonly Audience[] = ['host', 'operator', 'both', 'none'];

/** Why a host request was refused for who sent it (the `reason` label of switchboard_access_refusals_total). */
export type AccessRefusalReason = 'unauthenticated' | 'invalid-token' | 'insufficient-scope' | 'policy' | 'foreign-session' | 'foreign-handle';

export interface GatewayMetrics {
  /** A question was recorded (or, called again for the same id while it is open, re-routed to another audience). Settled records are ignored. */
  questionOpened(record: QuestionRecord): void;
  /** A question reached its final state: counted, its answer time observed, and it leaves the open gauge. Open records are ignored. */
  questionSettled(record: QuestionRecord): void;
  /** Either of the two above, by the record's state: fits `desk.subscribe((event) => metrics.questionChanged(event.question))`. */
  questionChanged(record: QuestionRecord): void;
  /** A request the gateway sent to an upstream ended. */
  upstreamRequest(upstream: string, method: string, seconds: number, outcome: UpstreamRequestOutcome): void;
  /** A host session opened or closed on a host transport (`streamable-http`, `sse`, `stdio`). */
  sessionOpened(transport: string): void;
  sessionClosed(transport: string): void;
  /** A host session of `kind` (`streamable-http`, `sse`, `stand-in`) entered (+1) or left (-1) the count the session caps apply to. */
  sessionCounted(kind: string, delta: 1 | -1): void;
  /** A host session of `kind` was closed to make room under the session caps. */
  sessionEvicted(kind: string): void;
  /** A new host session of `kind` was refused: a session cap was reached and no session was idle. */
  sessionRefused(kind: string): void;
  /**
   * A host request was refused for who sent it: `unauthenticated`, `invalid-token`, `insufficient-scope` (at the HTTP
   * edge), `policy` (GW_ERR_FORBIDDEN), `foreign-session` or `foreign-handle` (another principal's session or handle).
   */
  accessRefused(reason: AccessRefusalReason): void;
  /** An upstream was found up or down. */
  upstreamState(name: string, up: boolean): void;
}

/** Defines every Switchboard metric in `registry` (once per registry) and returns the calls that update them. */
export function createGatewayMetrics(registry: MetricsRegistry): GatewayMetrics {
  const questionsTotal = registry.counter({
    name: 'switchboard_questions_total',
    help: 'Questions upstreams asked that reached a final state, by method, route policy, audience and final state.',
    labelNames: ['method', 'route', 'audience', 'state'],
  });
  const questionsOpen = registry.gauge({
    name: 'switchboard_questions_open',
    help: 'Questions waiting for an answer (pending or delivered), by audience.',
    labelNames: ['audience'],
  });
  const answerSeconds = registry.histogram({
    name: 'switchboard_question_answer_seconds',
    help: 'Time from a question being recorded to its final state, in seconds, by method and kind of answerer.',
    labelNames: ['method', 'answered_by'],
    buckets: QUESTION_ANSWER_BUCKETS,
  });
  const upstreamRequests = registry.counter({
    name: 'switchboard_upstream_requests_total',
    help: 'Requests the gateway sent to upstreams, by upstream, method and outcome (ok, error, timeout, cancelled).',
    labelNames: ['upstream', 'method', 'outcome'],
  });
  const upstreamSeconds = registry.histogram({
    name: 'switchboard_upstream_request_seconds',
    help: 'Time from sending a request to an upstream to its end (any outcome), in seconds, by upstream and method.',
    labelNames: ['upstream', 'method'],
    buckets: UPSTREAM_REQUEST_BUCKETS,
  });
  const sessionsActive = registry.gauge({
    name: 'switchboard_host_sessions_active',
    help: 'Host sessions open now, by host transport.',
    labelNames: ['transport'],
  });
  const sessionsOpen = registry.gauge({
    name: 'switchboard_host_sessions_open',
    help: 'Host sessions counted under http.maxSessions now (sessionful HTTP, legacy /sse, 2026-07-28 stand-ins), by kind.',
    labelNames: ['kind'],
  });
  const sessionsEvicted = registry.counter({
    name: 'switchboard_host_sessions_evicted_total',
    help: 'Idle host sessions closed to make room for a new one under http.maxSessions, maxSessionsPerPrincipal or maxStandIns, by kind.',
    labelNames: ['kind'],
  });
  const accessRefusals = registry.counter({
    name: 'switchboard_access_refusals_total',
    help: 'Host requests refused for who sent them, by reason (unauthenticated, invalid-token, insufficient-scope, policy, foreign-session, foreign-handle).',
    labelNames: ['reason'],
  });
  const sessionsRefused = registry.counter({
    name: 'switchboard_host_sessions_refused_total',
    help: 'New host sessions refused (HTTP 503) because a session cap was reached and no session was idle, by kind.',
    labelNames: ['kind'],
  });
  const upstreamsUp = registry.gauge({
    name: 'switchboard_upstreams_up',
    help: 'Whether the last attempt to reach an upstream succeeded (1) or failed (0), by upstream.',
    labelNames: ['upstream'],
  });
  registerProcessMetrics(registry);

  for (const audience of AUDIENCES) questionsOpen.inc({ audience }, 0);
  /** The audience each open question is counted under. */
  const open = new Map<string, Audience>();

  const metrics: GatewayMetrics = {
    questionOpened(record) {
      if (!OPEN_STATES.includes(record.state)) return;
      const counted = open.get(record.id);
      if (counted === record.audience) return;
      if (counted !== undefined) questionsOpen.dec({ audience: counted });
      questionsOpen.inc({ audience: record.audience });
      open.set(record.id, record.audience);
    },
    questionSettled(record) {
      if (!SETTLED_STATES.includes(record.state)) return;
      const counted = open.get(record.id);
      if (counted !== undefined) {
        questionsOpen.dec({ audience: counted });
        open.delete(record.id);
      }
      questionsTotal.inc({ method: record.method, route: record.route, audience: record.audience, state: record.state });
      const seconds = (Date.parse(record.settledAt ?? record.updatedAt) - Date.parse(record.createdAt)) / 1000;
      if (Number.isFinite(seconds) && seconds >= 0) answerSeconds.observe({ method: record.method, answered_by: record.answeredBy?.kind ?? 'none' }, seconds);
    },
    questionChanged(record) {
      if (OPEN_STATES.includes(record.state)) metrics.questionOpened(record);
      else metrics.questionSettled(record);
    },
    upstreamRequest(upstream, method, seconds, outcome) {
      upstreamRequests.inc({ upstream, method, outcome });
      upstreamSeconds.observe({ upstream, method }, seconds);
    },
    sessionOpened(transport) {
      sessionsActive.inc({ transport });
    },
    sessionClosed(transport) {
      sessionsActive.dec({ transport });
    },
    sessionCounted(kind, delta) {
      if (delta > 0) sessionsOpen.inc({ kind });
      else sessionsOpen.dec({ kind });
    },
    sessionEvicted(kind) {
      sessionsEvicted.inc({ kind });
    },
    sessionRefused(kind) {
      sessionsRefused.inc({ kind });
    },
    accessRefused(reason) {
      accessRefusals.inc({ reason });
    },
    upstreamState(name, up) {
      upstreamsUp.set({ upstream: name }, up ? 1 : 0);
    },
  };
  return metrics;
}
