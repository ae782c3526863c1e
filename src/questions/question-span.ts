/**
 * @module The span of a question's life: opened when an upstream asks (a child of the upstream request it belongs to, when
 * one is known), an event when it is delivered (to the host session or to operators), ended when it settles, saying how
 * and by whom (the host, an operator by name, or the gateway: expired, abandoned...). A question may outlive the host
 * request that carried it; its span is still the upstream request's child, and ends on its own.
 */

import type { TraceSpan } from '../core/tracing/trace-port.js';
import { tracer } from '../core/tracing/trace-port.js';
import type { OpenRequest } from './open-request.js';
import type { Answerer, QuestionRecord, QuestionState } from './question.js';
import type { Outcome, Settlement } from './settle-table.js';

/** What `delivered` said when the question was recorded: to the host (under a key), or shown to operators. */
type Delivered = { to: string; hostRequestId?: string } | undefined;

/** Opens the span of question `record` (undefined when tracing is off). */
export function openQuestionSpan(request: OpenRequest, record: QuestionRecord): TraceSpan | undefined {
  const traces = tracer();
  if (!traces.enabled) return undefined;
  return traces.startSpan(`${record.method} ${request.origin.upstream}`, {
    kind: 'internal',
    ...(request.trace ? { parent: request.trace } : {}),
    attributes: {
      'mcp.method.name': record.method,
      'mcp.target': request.origin.upstream,
      'switchboard.upstream': request.origin.upstream,
      'switchboard.question.id': record.id,
      'switchboard.question.route': record.route,
      'switchboard.question.audience': record.audience,
      'gen_ai.tool.name': request.origin.tool,
      'mcp.session.id': request.origin.hostSessionId,
      ...(request.upstreamId === undefined ? {} : { 'jsonrpc.request.id': String(request.upstreamId) }),
    },
  });
}

/** The question was put to its host session or shown to operators. */
export function questionDelivered(span: TraceSpan | undefined, delivered: Delivered, hostSessionId: string | undefined): void {
  if (!span || !delivered) return;
  span.addEvent('question.delivered', {
    'switchboard.question.delivered_to': delivered.to,
    ...(delivered.to === 'host' ? { 'mcp.session.id': hostSessionId, 'switchboard.question.host_key': delivered.hostRequestId } : {}),
  });
}

/** Who settled it, as one attribute value: `host:<session>`, `operator:<name>`, or `gateway`. */
function byWhom(answerer: Answerer): string {
  if (answerer.kind === 'host') return `host:${answerer.sessionId}`;
  if (answerer.kind === 'operator') return `operator:${answerer.name}`;
  return 'gateway';
}

/** Runs `fn` (the question's store writes) inside its span, when it has one. */
export function withinQuestion<T>(span: TraceSpan | undefined, fn: () => T): T {
  return span ? tracer().within(span, fn) : fn();
}

/**
 * Ends the span with the outcome that won: the state it settled in and who settled it (the gateway's reason when
 * nobody answered; what another instance recorded when it settled first). Nothing won: it just ends.
 */
export function questionSettled(span: TraceSpan | undefined, won: Outcome | undefined, settlement: Settlement): void {
  if (!span) return;
  if (won !== undefined) {
    const state: QuestionState = won.kind === 'settled-elsewhere' ? won.record.state : settlement.to;
    const answerer: Answerer = won.kind === 'settled-elsewhere' ? won.record.answeredBy ?? { kind: 'gateway', reason: 'settled elsewhere' } : settlement.answeredBy;
    const attributes = {
      'switchboard.question.state': state,
      'switchboard.question.answered_by': byWhom(answerer),
      ...(answerer.kind === 'operator' ? { 'switchboard.question.operator': answerer.name } : {}),
      ...(answerer.kind === 'gateway' ? { 'switchboard.question.reason': answerer.reason } : {}),
    };
    span.addEvent(`question.${state}`, attributes);
    span.setAttributes(attributes);
    if (state === 'expired' || state === 'abandoned') span.fail(answerer.kind === 'gateway' ? answerer.reason : state, state);
  }
  span.end();
}
