/** @module What the operator surfaces (console, REST API, CLI) see of the desk: list, inspect, answer, and live events. */

import type { Principal } from '../access/principal.js';
import type { ApprovalState } from './approvals.js';
import type { AuditEntry, QuestionAnswer, QuestionFilter, QuestionRecord } from './question.js';

export type AnswerOutcome =
  /** Taken. `awaiting`: a four-eyes accept recorded as an approval; the question stays open until `needed` operators approved. */
  | { ok: true; question: QuestionRecord; awaiting?: { approvals: number; needed: number } }
  /** No such question, or none this operator may answer (never revealed): HTTP 404. */
  | { ok: false; kind: 'not-found'; reason: string }
  /** A four-eyes question this operator approved already: HTTP 409; nothing changed. */
  | { ok: false; kind: 'already-approved'; reason: string; question: QuestionRecord }
  /** Already settled (by the host, another operator, expiry…): HTTP 409; the record is unchanged. */
  | { ok: false; kind: 'settled'; reason: string; question: QuestionRecord }
  /** Breaks the limits or the schema (`field` names the first offending one): HTTP 400; the question stays open. */
  | { ok: false; kind: 'invalid'; reason: string; field?: string }
  /**
   * Has a secret field while the call waits on another instance (`owner`, when the store knows it): only there can the
   * secret reach the upstream (the store keeps `[redacted]`). The API forwards it there over the cluster link, else 409.
   */
  | { ok: false; kind: 'elsewhere'; reason: string; question: QuestionRecord; owner?: string };

/** A change worth showing live: a new question, or one whose state changed. */
export interface QuestionEvent {
  type: 'created' | 'updated';
  question: QuestionRecord;
  /**
   * Another instance of a shared store made this change; this desk only heard of it. Absent: this desk's own write, made
   * once in the whole cluster (what must happen once per change, such as a webhook, follows only these).
   */
  elsewhere?: true;
}

export interface OperatorDesk {
  list(filter?: QuestionFilter): Promise<QuestionRecord[]>;
  /** The question and its audit trail, or undefined. */
  get(id: string): Promise<{ question: QuestionRecord; audit: AuditEntry[] } | undefined>;
  /**
   * An operator's answer; validated exactly as a host's (limits, schema), audited whatever the outcome, with the
   * operator's verified identity. A question the operator may not answer (`policy.answerers`) is `not-found`.
   */
  answer(id: string, answer: QuestionAnswer, operator: Principal): Promise<AnswerOutcome>;
  /** Whether `operator` may see and answer `question` (`policy.answerers`); surfaces show nothing else to them. */
  mayAnswer(operator: Principal, question: QuestionRecord): boolean;
  /** A four-eyes question's approvals so far (undefined for a question one answer settles). */
  approvals(question: QuestionRecord): Promise<ApprovalState | undefined>;
  /** Live events until the returned function is called. */
  subscribe(listener: (event: QuestionEvent) => void): () => void;
}
