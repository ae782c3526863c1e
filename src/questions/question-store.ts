/** @module The durable store behind the desk: what any implementation (SQLite embedded, PostgreSQL shared) must offer. */

import type { AuditEntry, QuestionFilter, QuestionRecord, Transition } from './question.js';

/** An audit line as a writer gives it: the store stamps the question id and the time. */
export type AuditLine = Omit<AuditEntry, 'questionId' | 'at'>;

/**
 * Every method resolves only once the change is durable (written, committed), so the desk can act on it
 * afterwards: a crash between the two loses nothing that was acted on. Asynchronous on purpose: a networked
 * implementation (PostgreSQL, several gateway instances) fits the same shape.
 */
export interface QuestionStore {
  /**
   * Records a new question, its `created` audit line and any `more` lines, in one transaction: a question put
   * in front of someone at once is created in state `delivered` with its `delivered` line, one write.
   */
  create(record: QuestionRecord, audit: AuditLine, ...more: AuditLine[]): Promise<void>;
  /**
   * Optional: `create` in two steps, for a question put to its host only. Resolves once the question is committed (a
   * crash of this process can no longer lose it), with `onDisk` resolving once it is on disk (a power cut cannot
   * either; SQLite: the WAL synced off the event loop). The desk sends the host the question at once, and waits for
   * `onDisk` before operators hear of it and before its settlement is written. Without it the desk uses `create`.
   */
  createCommitted?(record: QuestionRecord, audit: AuditLine, ...more: AuditLine[]): Promise<{ onDisk: Promise<void> }>;
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
  /** The instance that created question `id` (and holds its call), on a store several instances share; undefined otherwise. */
  ownerOf?(id: string): Promise<string | undefined>;
  /**
   * For a store several gateways share: tells `listener` the id of each question whose state a transition changed,
   * whichever writer made it (PostgreSQL: LISTEN/NOTIFY carrying ids), so the instance holding its call can act.
   * A notification may be lost (a listener reconnecting): the desk also re-reads what it holds. Returns the unsubscribe.
   */
  changes?(listener: (id: string) => void): () => void;
  close(): Promise<void>;
}
