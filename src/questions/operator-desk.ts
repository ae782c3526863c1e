/** @module What the operator surfaces (console, REST API, CLI) see of the desk: list, inspect, answer, and live events. */

import type { AuditEntry, QuestionAnswer, QuestionFilter, QuestionRecord } from './question.js';

export type AnswerOutcome =
  | { ok: true; question: QuestionRecord }
  /** No such question: HTTP 404. */
  | { ok: false; kind: 'not-found'; reason: string }
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
}

export interface OperatorDesk {
  list(filter?: QuestionFilter): Promise<QuestionRecord[]>;
  /** The question and its audit trail, or undefined. */
  get(id: string): Promise<{ question: QuestionRecord; audit: AuditEntry[] } | undefined>;
  /** An operator's answer; validated exactly as a host's (limits, schema), audited whatever the outcome. */
  answer(id: string, answer: QuestionAnswer, operator: string): Promise<AnswerOutcome>;
  /** Live events until the returned function is called. */
  subscribe(listener: (event: QuestionEvent) => void): () => void;
}
