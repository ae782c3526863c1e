/** @module What an operator's four-eyes accept answers when it did not settle the question: awaiting more approvals, or refused as a second approval by the same operator. */

import type { ApprovalStep } from './approvals.js';
import type { AnswerOutcome } from './operator-desk.js';
import type { QuestionRecord } from './question.js';

/** The outcome of an approval that did not complete the count; undefined when it did (the caller settles the question). */
export function approvalOutcome(step: ApprovalStep, question: QuestionRecord): AnswerOutcome | undefined {
  switch (step.kind) {
    case 'complete':
      return undefined;
    case 'awaiting':
      return { ok: true, question, awaiting: { approvals: step.approvals, needed: step.needed } };
    case 'duplicate':
      return { ok: false, kind: 'already-approved', reason: `You approved question ${question.id} already; it needs ${step.needed} different operators (${step.approvals} so far)`, question };
  }
}
