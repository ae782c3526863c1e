/** @module What a state change does to a stored row, planned once for every store so they settle questions identically. */

import type { QuestionRecord, Transition } from '../questions/question.js';
import { OPEN_STATES, SETTLED_STATES } from '../questions/question.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { AuditRow } from './audit-row.js';
import { encodeAudit } from './audit-row.js';
import type { QuestionRow } from './question-row.js';
import { decodeQuestion, jsonText } from './question-row.js';
import { checkTransition } from './record-rules.js';
import { QuestionStoreError } from './store-error.js';

/** What a store writes for one applied transition, in one transaction, only if the row is still in `from`. */
export interface TransitionPlan {
  next: QuestionRow;
  record: QuestionRecord;
  audit: Omit<AuditRow, 'id'>;
}

/**
 * The plan for `transition` on `row` at time `at`, or undefined when there is nothing to do (no such row, or its
 * state is not one of `from`). The new row has the new state and `updatedAt`; `settledAt` is set when the new state
 * is a settled one (cleared when open); `answer`, `answeredBy`, `hostParams`, `audience` and `audienceReason` are
 * replaced only when the transition gives them. A damaged row fails with `corrupt-record`, a transition whose result
 * would not read back with `invalid-record`: nothing is written either way.
 */
export function planTransition(row: QuestionRow | undefined, id: string, transition: Transition, at: string): TransitionPlan | undefined {
  checkTransition(id, transition);
  if (row === undefined || !(transition.from as readonly string[]).includes(row.state)) return undefined;
  decodeQuestion(row);
  const next = nextRow(row, transition, at);
  return { next, record: decodeQuestion(next, 'invalid-record'), audit: encodeAudit({ ...transition.audit, questionId: row.id }, at) };
}

/** The transition `abandonOpen` applies to each open question: settled by the gateway, with the reason (a non-empty string). */
export function abandonTransition(reason: string): Transition {
  if (typeof reason !== 'string' || reason.length === 0) {
    throw new QuestionStoreError('invalid-record', 'abandoning open questions needs a reason (a non-empty string)');
  }
  return {
    from: OPEN_STATES,
    to: 'abandoned',
    answeredBy: { kind: 'gateway', reason },
    audit: { actor: 'gateway', action: 'abandoned', detail: { reason } },
  };
}

/**
 * What `abandonOpen` writes for one open row, given `abandonTransition(reason)`. Unlike `planTransition` it does not read the rest of the row, so even a
 * damaged question is abandoned rather than left open for ever.
 */
export function planAbandon(row: QuestionRow, transition: Transition, at: string): Omit<TransitionPlan, 'record'> {
  return { next: nextRow(row, transition, at), audit: encodeAudit({ ...transition.audit, questionId: row.id }, at) };
}

function nextRow(row: QuestionRow, transition: Transition, at: string): QuestionRow {
  const next: QuestionRow = { ...row, state: transition.to, updated_at: at, settled_at: SETTLED_STATES.includes(transition.to) ? at : null };
  if (transition.answer !== undefined) next.answer = jsonText(transition.answer, row.id, 'answer');
  if (transition.answeredBy !== undefined) {
    next.answered_by = jsonText(transition.answeredBy, row.id, 'answeredBy');
    next.answered_by_kind = isObject(transition.answeredBy) && typeof transition.answeredBy.kind === 'string' ? transition.answeredBy.kind : null;
  }
  if (transition.hostParams !== undefined) next.host_params = jsonText(transition.hostParams, row.id, 'hostParams');
  if (transition.audience !== undefined) next.audience = transition.audience;
  if (transition.audienceReason !== undefined) next.audience_reason = transition.audienceReason;
  return next;
}
