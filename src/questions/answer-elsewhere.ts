/**
 * @module An operator's answer to an open question whose call waits on another instance of a shared store: checked
 * against the record (what the upstream asked, in its revision), then written by compare-and-set; the instance that
 * holds the call hears of the change and relays it. One with a secret field is not written: the store keeps only
 * "[redacted]" of a secret, so it can reach the upstream only from the instance that holds the call (the outcome
 * names it, for the operator API to forward the answer there).
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import { checkOperatorAnswer } from '../translation/answers/answer-check.js';
import { answerAtRest } from './answer-at-rest.js';
import type { AnswerOutcome } from './operator-desk.js';
import type { QuestionAnswer, QuestionRecord } from './question.js';
import { OPEN_STATES } from './question.js';
import type { QuestionStore } from './question-store.js';
import { STATE_OF_ACTION } from './settle-table.js';

export async function answerElsewhere(store: QuestionStore, question: QuestionRecord, answer: QuestionAnswer, operator: string, written: (record: QuestionRecord) => void, writing: (id: string) => () => void): Promise<AnswerOutcome> {
  const { id } = question;
  const actor = `operator:${operator}`;
  const refuse = (why: string, detail: JsonObject = {}): Promise<void> => store.audit({ questionId: id, actor, action: 'rejected-answer', detail: { why, ...detail } });
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
  const to = STATE_OF_ACTION[check.answer.action];
  const undo = writing(id);
  const updated = await store.transition(id, { from: OPEN_STATES, to, answer: kept, answeredBy: { kind: 'operator', name: operator }, audit: { actor, action: to } });
  if (!updated) {
    undo();
    const after = await store.get(id);
    return after ? { ok: false, kind: 'settled', reason: `Question ${id} is already ${after.state}`, question: after } : { ok: false, kind: 'not-found', reason: `No question ${id}` };
  }
  written(updated);
  return { ok: true, question: updated };
}
