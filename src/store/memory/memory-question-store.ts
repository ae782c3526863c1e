/** @module A question store in process memory, row for row like the SQLite one, for tests of other layers and `store: memory`. */

import { systemClock } from '../../core/clock.js';
import type { AuditEntry, QuestionFilter, QuestionRecord, Transition } from '../../questions/question.js';
import type { AuditLine, QuestionStore } from '../../questions/question-store.js';
import type { AuditRow } from '../audit-row.js';
import { decodeAudit, encodeAudit } from '../audit-row.js';
import { normalizeFilter, rowMatches } from '../list-filter.js';
import type { QuestionRow } from '../question-row.js';
import { decodeQuestion, encodeQuestion } from '../question-row.js';
import { QuestionStoreError } from '../store-error.js';
import { stamp } from '../timestamps.js';
import { abandonTransition, planAbandon, planTransition } from '../transition-row.js';

/**
 * The tables. Several stores may share one (as several gateway instances share a database), each with its own owner.
 * Rows hold JSON as text, exactly as SQLite does, so both stores return the same records.
 */
export interface MemoryQuestionDatabase {
  /** By id; `seq` is the insertion order, which breaks ties between equal creation times. */
  questions: Map<string, { seq: number; row: QuestionRow }>;
  audit: AuditRow[];
  nextSeq: number;
}

export function createMemoryQuestionDatabase(): MemoryQuestionDatabase {
  return { questions: new Map(), audit: [], nextSeq: 1 };
}

export interface MemoryQuestionStoreOptions {
  /** Tables to share with other stores; a fresh private set by default. */
  database?: MemoryQuestionDatabase;
  /** This instance's name, stamped on the questions it creates (see `abandonOpen`). */
  owner?: string;
  now?: () => Date;
}

export class MemoryQuestionStore implements QuestionStore {
  private readonly db: MemoryQuestionDatabase;
  private readonly owner: string | undefined;
  private readonly now: () => Date;
  private closed = false;

  constructor(options: MemoryQuestionStoreOptions = {}) {
    this.db = options.database ?? createMemoryQuestionDatabase();
    this.owner = options.owner;
    this.now = options.now ?? (() => systemClock.date());
  }

  async create(record: QuestionRecord, audit: AuditLine, ...more: AuditLine[]): Promise<void> {
    this.checkOpen();
    const row = encodeQuestion(record, this.owner);
    const at = stamp(this.now);
    const auditRows = [audit, ...more].map((line) => encodeAudit({ ...line, questionId: row.id }, at));
    if (this.db.questions.has(row.id)) {
      throw new QuestionStoreError('duplicate', `question ${row.id} already exists`, { questionId: row.id });
    }
    this.db.questions.set(row.id, { seq: this.db.nextSeq++, row });
    for (const auditRow of auditRows) this.appendAudit(auditRow);
  }

  async transition(id: string, transition: Transition): Promise<QuestionRecord | undefined> {
    this.checkOpen();
    const held = this.db.questions.get(id);
    const plan = planTransition(held?.row, id, transition, stamp(this.now));
    if (plan === undefined || held === undefined) return undefined;
    held.row = plan.next;
    this.appendAudit(plan.audit);
    return plan.record;
  }

  async audit(entry: Omit<AuditEntry, 'at'>): Promise<void> {
    this.checkOpen();
    const row = encodeAudit(entry, stamp(this.now));
    if (!this.db.questions.has(row.question_id)) {
      throw new QuestionStoreError('unknown-question', `no question ${row.question_id} to audit`, { questionId: row.question_id });
    }
    this.appendAudit(row);
  }

  async get(id: string): Promise<QuestionRecord | undefined> {
    this.checkOpen();
    const held = this.db.questions.get(id);
    return held === undefined ? undefined : decodeQuestion(held.row);
  }

  async list(filter?: QuestionFilter): Promise<QuestionRecord[]> {
    this.checkOpen();
    const normalized = normalizeFilter(filter);
    const matching = [...this.db.questions.values()].filter((held) => rowMatches(held.row, normalized));
    matching.sort((a, b) => (a.row.created_at === b.row.created_at ? b.seq - a.seq : a.row.created_at < b.row.created_at ? 1 : -1));
    return matching.slice(0, normalized.limit).map((held) => decodeQuestion(held.row));
  }

  async auditTrail(id: string): Promise<AuditEntry[]> {
    this.checkOpen();
    return this.db.audit.filter((row) => row.question_id === id).map((row) => decodeAudit(row));
  }

  async abandonOpen(reason: string, owner?: string): Promise<number> {
    this.checkOpen();
    const transition = abandonTransition(reason);
    const at = stamp(this.now);
    const open = [...this.db.questions.values()]
      .filter((held) => (held.row.state === 'pending' || held.row.state === 'delivered') && (owner === undefined || held.row.owner === owner))
      .sort((a, b) => a.seq - b.seq);
    const plans = open.map((held) => ({ held, plan: planAbandon(held.row, transition, at) }));
    for (const { held, plan } of plans) {
      held.row = plan.next;
      this.appendAudit(plan.audit);
    }
    return plans.length;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private appendAudit(row: Omit<AuditRow, 'id'>): void {
    const last = this.db.audit[this.db.audit.length - 1];
    this.db.audit.push({ id: (last?.id ?? 0) + 1, ...row });
  }

  private checkOpen(): void {
    if (this.closed) throw new QuestionStoreError('closed', 'the question store is closed');
  }
}

export function openMemoryQuestionStore(options: MemoryQuestionStoreOptions = {}): MemoryQuestionStore {
  return new MemoryQuestionStore(options);
}
