/**
 * @module An operator's answer at the desk, in order: the question must exist and be theirs to answer (`policy.answerers`;
 * otherwise it does not exist for them), be open and held here (or is written for the instance that holds it), be
 * for operators, pass the check; a four-eyes accept is an approval until enough operators gave one; then it settles.
 * Every refusal is an audit line naming the operator.
 */

import type { AnswererRule } from '../access/answerers.js';
import { mayAnswer } from '../access/answerers.js';
import { operatorActor } from '../access/operator-principal.js';
import type { Principal } from '../access/principal.js';
import { answerElsewhere } from './answer-elsewhere.js';
import { approvalOutcome } from './approval-outcome.js';
import { approvalsNeeded, approve } from './approvals.js';
import type { HeldQuestion } from './held-question.js';
import { identityDetail, operatorAnswerer } from './operator-answerer.js';
import type { AnswerOutcome } from './operator-desk.js';
import type { QuestionAnswer, QuestionRecord } from './question.js';
import { OPEN_STATES } from './question.js';
import type { QuestionStore } from './question-store.js';
import type { Outcome } from './settle-table.js';

/** What of the desk an operator's answer needs. */
export interface OperatorAnswerContext {
  store: QuestionStore;
  answerers: readonly AnswererRule[];
  approvers: Readonly<Record<string, number>>;
  held(id: string): HeldQuestion | undefined;
  /** With a store several gateways share: marks this desk's own writes (see change-watch.ts). */
  watch?: { ownWrite(id: string): void; notWritten(id: string): void };
  /** Tells this desk's operators that the record changed (an approval, a write for another instance). */
  emit(record: QuestionRecord): void;
  settle(id: string, outcome: Outcome): Promise<boolean>;
}

/** Whether `operator` may see and answer `question`. */
export function questionFor(answerers: readonly AnswererRule[], operator: Principal, question: QuestionRecord): boolean {
  const { upstream, tool } = question.origin;
  return mayAnswer(answerers, operator, { upstream, ...(tool === undefined ? {} : { tool }) });
}

export async function answerAsOperator(desk: OperatorAnswerContext, id: string, answer: QuestionAnswer, operator: Principal): Promise<AnswerOutcome> {
  const { store } = desk;
  const actor = operatorActor(operator);
  const who = identityDetail(operator);
  const refuse = (why: string, more: Record<string, string> = {}) => store.audit({ questionId: id, actor, action: 'rejected-answer', detail: { why, ...more, ...who } });
  const question = await store.get(id);
  if (!question) return { ok: false, kind: 'not-found', reason: `No question ${id}` };
  if (!questionFor(desk.answerers, operator, question)) {
    // Not theirs to answer: told as if it did not exist, and the attempt kept.
    await refuse('not among the answerers of this question (policy.answerers)');
    return { ok: false, kind: 'not-found', reason: `No question ${id}` };
  }
  const needed = approvalsNeeded(desk.approvers, question.origin.tool);
  const held = desk.held(id);
  const { watch } = desk;
  if (OPEN_STATES.includes(question.state) && !held && watch) {
    return answerElsewhere(store, question, answer, { operator, needed }, desk.emit, (writing) => (watch.ownWrite(writing), () => watch.notWritten(writing)));
  }
  if (!OPEN_STATES.includes(question.state) || !held) {
    const why = OPEN_STATES.includes(question.state)
      ? `Question ${id} is ${question.state} but no call of this gateway waits for it (another instance holds it, or it is being abandoned)`
      : `Question ${id} is already ${question.state}`;
    await refuse(held ? 'settled' : 'not held here', { state: question.state });
    return { ok: false, kind: 'settled', reason: why, question };
  }
  if (question.audience === 'host') {
    await refuse('routed to the host only');
    return { ok: false, kind: 'invalid', reason: `Question ${id} is routed to its host only (route: ${question.route})` };
  }
  const check = answer.action === 'accept' ? held.checkOperatorAnswer(answer) : { ok: true as const, answer };
  if (!check.ok) {
    await refuse(check.reason, check.field ? { field: check.field } : {});
    return { ok: false, kind: 'invalid', reason: check.reason, ...(check.field ? { field: check.field } : {}) };
  }
  if (needed > 1 && check.answer.action === 'accept') {
    const pending = approvalOutcome(await approve(store, question, operator, actor, check.answer, needed), question);
    if (pending) {
      if (pending.ok) desk.emit(question);
      return pending;
    }
  }
  const settled = await desk.settle(id, { kind: 'operator-answer', operator: operatorAnswerer(operator), answer: check.answer });
  const after = await store.get(id);
  if (!settled || !after) {
    return after ? { ok: false, kind: 'settled', reason: `Question ${id} is already ${after.state}`, question: after } : { ok: false, kind: 'not-found', reason: `No question ${id}` };
  }
  return { ok: true, question: after };
}
