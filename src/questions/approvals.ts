/**
 * @module Four-eyes approval (`questions.tools.<tool>.approvers`): an operator's accept of such a question is an
 * `approved` audit line until that many different operators have accepted. Approvals are counted from the audit
 * trail, so every instance sharing the store, and a restarted one, counts the same: each approver writes their line
 * and then reads the trail back, so of two approvals written at once at least the later one sees both.
 */

import { approverKey } from '../access/operator-principal.js';
import type { Principal } from '../access/principal.js';
import { answerAtRest } from './answer-at-rest.js';
import { identityDetail } from './operator-answerer.js';
import type { AuditEntry, QuestionAnswer, QuestionRecord } from './question.js';
import type { QuestionStore } from './question-store.js';

/** The audit action of one operator's approval. */
export const APPROVED = 'approved';

/** One operator who approved, as the console and API show them. */
export interface Approver {
  name: string;
  subject: string;
  issuer: string;
  at: string;
}

/** Where a four-eyes question stands: how many approvals it needs, and who gave one (each operator once, oldest first). */
export interface ApprovalState {
  needed: number;
  approvers: Approver[];
}

export type ApprovalStep =
  /** This accept was the last approval needed: settle the question with it. */
  | { kind: 'complete'; approvals: number; needed: number }
  /** Recorded; more operators must approve. */
  | { kind: 'awaiting'; approvals: number; needed: number }
  /** This operator approved already; nothing was recorded. */
  | { kind: 'duplicate'; approvals: number; needed: number };

/** How many operators must accept questions asked during calls of `tool` (1: any one answer settles). */
export function approvalsNeeded(approvers: Readonly<Record<string, number>>, tool: string | undefined): number {
  if (tool === undefined) return 1;
  const needed = Object.hasOwn(approvers, tool) ? approvers[tool] : undefined;
  return needed !== undefined && Number.isInteger(needed) && needed > 1 ? needed : 1;
}

/** The distinct approvers of a trail, oldest first (a second line of one operator counts once). */
export function approversIn(audit: readonly AuditEntry[]): Approver[] {
  const seen = new Map<string, Approver>();
  for (const entry of audit) {
    if (entry.action !== APPROVED) continue;
    const { subject, issuer, name } = entry.detail ?? {};
    if (typeof subject !== 'string' || typeof issuer !== 'string') continue;
    const key = approverKey({ issuer, subject });
    if (!seen.has(key)) seen.set(key, { name: typeof name === 'string' ? name : subject, subject, issuer, at: entry.at });
  }
  return [...seen.values()];
}

/**
 * Records `operator`'s accept of `question` as an approval, unless they approved already. The content is kept as the
 * store keeps answers (secret fields redacted). Resolves whether this approval completed the count.
 */
export async function approve(store: QuestionStore, question: QuestionRecord, operator: Principal, actor: string, answer: QuestionAnswer, needed: number): Promise<ApprovalStep> {
  const id = question.id;
  const before = approversIn(await store.auditTrail(id));
  const mine = approverKey(operator);
  if (before.some((approver) => approverKey(approver) === mine)) {
    await store.audit({ questionId: id, actor, action: 'rejected-answer', detail: { why: 'this operator approved already', ...identityDetail(operator) } });
    return { kind: 'duplicate', approvals: before.length, needed };
  }
  const kept = answerAtRest(question.method, question.params, answer);
  await store.audit({
    questionId: id,
    actor,
    action: APPROVED,
    detail: { issuer: operator.issuer, subject: operator.subject, name: operator.name ?? operator.subject, ...(kept.content === undefined ? {} : { content: kept.content }), ...(kept.result === undefined ? {} : { result: kept.result }) },
  });
  const approvals = approversIn(await store.auditTrail(id)).length;
  return { kind: approvals >= needed ? 'complete' : 'awaiting', approvals, needed };
}
