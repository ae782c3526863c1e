/** @module A composite run store in process memory, row for row like the SQLite one, for tests of other layers and `store: memory`. */

import { systemClock } from '../../core/clock.js';
import type { RunRecord } from '../../composite/run-record.js';
import type { RunFilter, RunOfQuestion, RunStore } from '../../composite/run-store.js';
import { RunStoreError } from '../../composite/run-store.js';
import type { RunQuestionLink, RunRow } from '../run-row.js';
import { abandonedRun, decodeRun, encodeRun, normalizeRunFilter, questionLinks, questionTaken, runRowMatches } from '../run-row.js';
import { stamp } from '../timestamps.js';

/** The tables. Several stores may share one (as several connections share a database file). Rows hold JSON as text, as SQLite does. */
export interface MemoryRunDatabase {
  /** By id; `seq` is the insertion order, which breaks ties between equal start times. */
  runs: Map<string, { seq: number; row: RunRow }>;
  /** By question id. */
  questions: Map<string, { runId: string; stepId: string }>;
  nextSeq: number;
}

export function createMemoryRunDatabase(): MemoryRunDatabase {
  return { runs: new Map(), questions: new Map(), nextSeq: 1 };
}

export interface MemoryRunStoreOptions {
  /** Tables to share with other stores; a fresh private set by default. */
  database?: MemoryRunDatabase;
  now?: () => Date;
}

export class MemoryRunStore implements RunStore {
  private readonly db: MemoryRunDatabase;
  private readonly now: () => Date;
  private closed = false;

  constructor(options: MemoryRunStoreOptions = {}) {
    this.db = options.database ?? createMemoryRunDatabase();
    this.now = options.now ?? systemClock.date;
  }

  async create(run: RunRecord): Promise<void> {
    this.checkOpen();
    const row = encodeRun(run);
    if (this.db.runs.has(row.id)) throw new RunStoreError('duplicate', `run ${row.id} already exists`, { runId: row.id });
    const links = this.checkLinks(row.id, run);
    this.db.runs.set(row.id, { seq: this.db.nextSeq++, row });
    this.replaceLinks(row.id, links);
  }

  async update(run: RunRecord): Promise<void> {
    this.checkOpen();
    const row = encodeRun(run);
    const held = this.db.runs.get(row.id);
    if (held === undefined) throw new RunStoreError('unknown-run', `no run ${row.id} to update`, { runId: row.id });
    const links = this.checkLinks(row.id, run);
    held.row = row;
    this.replaceLinks(row.id, links);
  }

  async get(id: string): Promise<RunRecord | undefined> {
    this.checkOpen();
    const held = this.db.runs.get(id);
    return held === undefined ? undefined : decodeRun(held.row);
  }

  async list(filter?: RunFilter): Promise<RunRecord[]> {
    this.checkOpen();
    const normalized = normalizeRunFilter(filter);
    const matching = [...this.db.runs.values()].filter((held) => runRowMatches(held.row, normalized));
    matching.sort((a, b) => (a.row.started_at === b.row.started_at ? b.seq - a.seq : a.row.started_at < b.row.started_at ? 1 : -1));
    return matching.slice(0, normalized.limit).map((held) => decodeRun(held.row));
  }

  async findByQuestion(questionId: string): Promise<RunOfQuestion | undefined> {
    this.checkOpen();
    const link = this.db.questions.get(questionId);
    const held = link === undefined ? undefined : this.db.runs.get(link.runId);
    return link === undefined || held === undefined ? undefined : { run: decodeRun(held.row), stepId: link.stepId };
  }

  async abandonRunning(reason: string): Promise<number> {
    this.checkOpen();
    const at = stamp(this.now);
    const running = [...this.db.runs.values()].filter((held) => held.row.state === 'running').sort((a, b) => a.seq - b.seq);
    // Every row is read (and checked) before any is changed, so a damaged one changes nothing.
    const rows = running.map((held) => ({ held, row: encodeRun(abandonedRun(decodeRun(held.row), reason, at)) }));
    for (const { held, row } of rows) held.row = row;
    return rows.length;
  }

  /** Later calls reject with `closed` (as the SQLite store's do once its database is closed). */
  async close(): Promise<void> {
    this.closed = true;
  }

  private checkLinks(runId: string, run: RunRecord): RunQuestionLink[] {
    const links = questionLinks(run);
    for (const link of links) {
      const owner = this.db.questions.get(link.questionId);
      if (owner !== undefined && owner.runId !== runId) throw questionTaken(runId, link.questionId, owner.runId);
    }
    return links;
  }

  private replaceLinks(runId: string, links: RunQuestionLink[]): void {
    for (const [questionId, link] of this.db.questions) if (link.runId === runId) this.db.questions.delete(questionId);
    for (const link of links) this.db.questions.set(link.questionId, { runId, stepId: link.stepId });
  }

  private checkOpen(): void {
    if (this.closed) throw new RunStoreError('closed', 'the run store is closed');
  }
}
