/** @module The durable store behind the broker: what any implementation (SQLite embedded, PostgreSQL shared) must offer. */

import type { AuditEntry, QuestionFilter, QuestionRecord, Transition } from './question.js';

/**
 * Every method resolves only once the change is durable (written, committed), so the broker can act on it
 * afterwards: a crash between the two loses nothing that was acted on. Asynchronous on purpose: a networked
 * implementation (PostgreSQL, several gateway instances) fits the same shape.
 */
export interface QuestionStore {
  /** Records a new question and its `created` audit line in one transaction. */
  create(record: QuestionRecord, audit: Omit<AuditEntry, 'questionId' | 'at'>): Promise<void>;
  /**
   * Applies `transition` if the question's state is one of `transition.from`, with its audit line, in one
   * transaction. Resolves the updated record, or `undefined` when the question is unknown or already elsewhere
   * (someone settled it first): the caller must then not act.
   */
  transition(id: string, transition: Transition): Promise<QuestionRecord | undefined>;
  /** Appends an audit line that changes no state (a rejected answer, an operator viewing a question). */
  audit(entry: Omit<AuditEntry, 'at'>): Promise<void>;
  get(id: string): Promise<QuestionRecord | undefined>;
  list(filter?: QuestionFilter): Promise<QuestionRecord[]>;
  /** The question's audit trail, oldest first. */
  auditTrail(id: string): Promise<AuditEntry[]>;
  /**
   * At start: every question still open belongs to a call that no longer exists (the process that held it
   * stopped); marks each `abandoned` with an audit line naming `reason`, and resolves how many.
   * With several instances sharing a store, only questions owned by `owner` are touched.
   */
  abandonOpen(reason: string, owner?: string): Promise<number>;
  close(): Promise<void>;
}
