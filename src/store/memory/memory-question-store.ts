/** @module A question store in process memory that keeps records as objects (copied in and out), for `store: memory` and tests of other layers. */

import { systemClock } from '../../core/clock.js';
import type { AuditEntry, QuestionFilter, QuestionRecord, Transition } from '../../questions/question.js';
import { OPEN_STATES } from '../../questions/question.js';
import type { AuditLine, QuestionStore } from '../../questions/question-store.js';
import { normalizeFilter, recordMatches } from '../list-filter.js';
import { QuestionStoreError } from '../store-error.js';
import { stamp } from '../timestamps.js';
import { checkTransition } from '../record-rules.js';
import { abandonTransition } from '../transition-row.js';
import { keptAuditEntry, keptQuestion, transitioned } from './kept-records.js';

/** A question as kept: its record (never changed in place, never handed out), when it came and who made it. */
export interface HeldQuestion {
  /** The insertion order, which breaks ties between equal creation times. */
  seq: number;
  /** The gateway instance that created the question (several instances may share one database). */
  owner: string | undefined;
  record: QuestionRecord;
}

/**
 * The tables. Several stores may share one (as several gateway instances share a database), each with its own owner.
 * Records and audit entries are kept as plain objects that no caller holds: every value is copied on the way in,
 * with JSON's semantics as the SQLite store applies them, and copied again on the way out.
 */
export interface MemoryQuestionDatabase {
  questions: Map<string, HeldQuestion>;
  /** Each question's trail, in writing order. */
  audit: Map<string, AuditEntry[]>;
  nextSeq: number;
  /** Told of each question a transition changed, as another process sharing a database would be (after the write, never during it). */
  listeners: Set<(id: string) => void>;
}

export function createMemoryQuestionDatabase(): MemoryQuestionDatabase {
  return { questions: new Map(), audit: new Map(), nextSeq: 1, listeners: new Set() };
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
    if (options.database) this.changes = (listener) => this.#listen(listener);
    this.owner = options.owner;
    this.now = options.now ?? systemClock.date;
  }

  async create(record: QuestionRecord, audit: AuditLine, ...more: AuditLine[]): Promise<void> {
    this.checkOpen();
    const kept = keptQuestion(record);
    const at = stamp(this.now);
    const trail = [keptAuditEntry(audit, kept.id, at)];
    for (const line of more) trail.push(keptAuditEntry(line, kept.id, at));
    if (this.db.questions.has(kept.id)) {
      throw new QuestionStoreError('duplicate', `question ${kept.id} already exists`, { questionId: kept.id });
    }
    this.db.questions.set(kept.id, { seq: this.db.nextSeq++, owner: this.owner, record: kept });
    this.db.audit.set(kept.id, trail);
    if (this.db.listeners.size > 0) this.#told(kept.id);
  }

  async transition(id: string, transition: Transition): Promise<QuestionRecord | undefined> {
    this.checkOpen();
    checkTransition(id, transition);
    const held = this.db.questions.get(id);
    if (held === undefined || !transition.from.includes(held.record.state)) return undefined;
    const at = stamp(this.now);
    const next = transitioned(held.record, transition, at);
    const line = keptAuditEntry(transition.audit, id, at);
    held.record = next;
    this.db.audit.get(id)?.push(line);
    if (this.db.listeners.size > 0) this.#told(id);
    return structuredClone(next);
  }

  /**
   * Present only on a store given tables to share (`database`): other stores may write there, as other instances
   * would; a store with tables of its own has no other writer to hear of.
   */
  readonly changes?: (listener: (id: string) => void) => () => void;

  #listen(listener: (id: string) => void): () => void {
    // Each subscription is its own entry, so one listener given twice is told twice, and removed once each.
    const entry = (id: string) => listener(id);
    this.db.listeners.add(entry);
    return () => this.db.listeners.delete(entry);
  }

  async audit(entry: Omit<AuditEntry, 'at'>): Promise<void> {
    this.checkOpen();
    const line = keptAuditEntry(entry, entry?.questionId, stamp(this.now));
    const trail = this.db.audit.get(line.questionId);
    if (trail === undefined) {
      throw new QuestionStoreError('unknown-question', `no question ${line.questionId} to audit`, { questionId: line.questionId });
    }
    trail.push(line);
  }

  async get(id: string): Promise<QuestionRecord | undefined> {
    this.checkOpen();
    const held = this.db.questions.get(id);
    return held === undefined ? undefined : structuredClone(held.record);
  }

  async list(filter?: QuestionFilter): Promise<QuestionRecord[]> {
    this.checkOpen();
    const normalized = normalizeFilter(filter);
    const matching: HeldQuestion[] = [];
    for (const held of this.db.questions.values()) if (recordMatches(held.record, normalized)) matching.push(held);
    matching.sort(newestFirst);
    return structuredClone(matching.slice(0, normalized.limit).map((held) => held.record));
  }

  async auditTrail(id: string): Promise<AuditEntry[]> {
    this.checkOpen();
    return structuredClone(this.db.audit.get(id) ?? []);
  }

  async ownerOf(id: string): Promise<string | undefined> {
    this.checkOpen();
    return this.db.questions.get(id)?.owner;
  }

  async abandonOpen(reason: string, owner?: string): Promise<number> {
    this.checkOpen();
    const transition = abandonTransition(reason);
    const at = stamp(this.now);
    const open: HeldQuestion[] = [];
    for (const held of this.db.questions.values()) {
      if (OPEN_STATES.includes(held.record.state) && (owner === undefined || held.owner === owner)) open.push(held);
    }
    const changes = open.map((held) => ({ held, next: transitioned(held.record, transition, at), line: keptAuditEntry(transition.audit, held.record.id, at) }));
    for (const { held, next, line } of changes) {
      held.record = next;
      this.db.audit.get(next.id)?.push(line);
      if (this.db.listeners.size > 0) this.#told(next.id);
    }
    return changes.length;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Every store sharing the database hears of the change, after the write. */
  #told(id: string): void {
    for (const listener of this.db.listeners) queueMicrotask(() => listener(id));
  }

  private checkOpen(): void {
    if (this.closed) throw new QuestionStoreError('closed', 'the question store is closed');
  }
}

/** Newest created first; of equal times, the one stored last first. */
function newestFirst(a: HeldQuestion, b: HeldQuestion): number {
  if (a.record.createdAt === b.record.createdAt) return b.seq - a.seq;
  return a.record.createdAt < b.record.createdAt ? 1 : -1;
}

export function openMemoryQuestionStore(options: MemoryQuestionStoreOptions = {}): MemoryQuestionStore {
  return new MemoryQuestionStore(options);
}
