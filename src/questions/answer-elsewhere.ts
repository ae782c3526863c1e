/**
 * @module An operator's answer to an open question whose call waits on another instance of a shared store: checked
 * against the record (what the upstream asked, in its revision), then written by compare-and-set; the instance that
 * holds the call hears of the change and relays it. One with a secret field is not written: the store keeps only
 * "[redacted]" of a secret, so it can reach the upstream only from the instance that holds the call (the outcome
 * names it, for the operator API to forward the answer there).
 */

import { operatorActor } from '../access/operator-principal.js';
import type { Principal } from '../access/principal.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { approvalOutcome } from './approval-outcome.js';
import { approve } from './approvals.js';
import { identityDetail, operatorAnswerer } from './operator-answerer.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import { checkOperatorAnswer } from '../translation/answers/answer-check.js';
import { answerAtRest } from './answer-at-rest.js';
import type { AnswerOutcome } from './operator-desk.js';
import type { QuestionAnswer, QuestionRecord } from './question.js';
import { OPEN_STATES } from './question.js';
import type { QuestionStore } from './question-store.js';
import { STATE_OF_ACTION } from './settle-table.js';

/** Who answers, and how many operators' approvals the question needs (four-eyes, counted from the audit trail). */
export interface ElsewhereAnswerer {
  operator: Principal;
  needed: number;
}

export async function answerElsewhere(store: QuestionStore, question: QuestionRecord, answer: QuestionAnswer, by: ElsewhereAnswerer, written: (record: QuestionRecord) => void, writing: (id: string) => () => void): Promise<AnswerOutcome> {
  const { id } = question;
  const { operator, needed } = by;
  const actor = operatorActor(operator);
  const refuse = (why: string, detail: JsonObject = {}): Promise<void> => store.audit({ questionId: id, actor, action: 'rejected-answer', detail: { why, ...detail, ...identityDetail(operator) } });
  if (question.audience === 'host') {
    await refuse('routed to the host only');
    return { ok: false, kind: 'invalid', reason: `Question ${id} is routed to its host only (route: ${question.route})` };
  }
  const check = answer.action === 'accept' ? checkOperatorAnswer(question.method, question.params, question.origin.upstreamRevision ?? LATEST_LEGACY_REVISION, answer) : { ok: true as const, answer };
  if (!check.ok) {
    await refuse(check.reason, check.field ? { field: check.field } : {});
    return { ok: false, kind: 'invalid', reason: check.reason, ...(check.field ? { field: check.field } : {}) };
  }
  const kept = answerAtRest(question.method, question.params, check.answer);
  if (JSON.stringify(kept) !== JSON.stringify(check.answer)) {
    const owner = await store.ownerOf?.(id);
    await refuse('a secret field, and the call waits on another instance', owner === undefined ? {} : { instance: owner });
    const where = owner === undefined ? 'another gateway instance' : `gateway instance ${owner}`;
    const reason = `Question ${id} has a secret field and its call waits on ${where}: answer it there (the store keeps only "[redacted]" of a secret)`;
    return { ok: false, kind: 'elsewhere', reason, question, ...(owner === undefined ? {} : { owner }) };
  }
  if (needed > 1 && check.answer.action === 'accept') {
    const pending = approvalOutcome(await approve(store, question, operator, actor, check.answer, needed), question);
    if (pending) {
      if (pending.ok) written(question);
      return pending;
    }
  }
  const to = STATE_OF_ACTION[check.answer.action];
  const undo = writing(id);
  const answeredBy = operatorAnswerer(operator);
  const identity = identityDetail(operator);
  const updated = await store.transition(id, { from: OPEN_STATES, to, answer: kept, answeredBy, audit: { actor, action: to, ...(Object.keys(identity).length > 0 ? { detail: identity } : {}) } });
  if (!updated) {
    undo();
    const after = await store.get(id);
    return after ? { ok: false, kind: 'settled', reason: `Question ${id} is already ${after.state}`, question: after } : { ok: false, kind: 'not-found', reason: `No question ${id}` };
  }
  written(updated);
  return { ok: true, question: updated };
}
