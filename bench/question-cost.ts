/** @module Bench cluster cell, cost of a question: the database counters of a batch of questions, per question, with the instances' heartbeats taken out. */

import type { CounterSnapshot, TableRows } from './pg-counters.js';

/** What one question cost the database, on average over a batch. */
export interface QuestionCost {
  questions: number;
  /** Rows per question in each table of the schema (the `instances` table, background heartbeats, left out). */
  tables: Record<string, TableRows>;
  /** Notifications heard on the schema's change channel, per question. */
  notifications: number;
  /** Write transactions (transaction ids handed out) per question, heartbeats taken out. */
  writeTransactions: number;
}

const zero: TableRows = { inserted: 0, updated: 0, deleted: 0 };

/**
 * Per-question cost of a batch of `questions` questions: `before` it, `atEnd` (taken as it ends, for the transaction
 * ids), `flushed` (taken once the instances have exited: a backend flushes its table statistics when it ends, and
 * only every second or so before), and the notifications heard meanwhile.
 */
export function questionCost(before: CounterSnapshot, atEnd: CounterSnapshot, flushed: CounterSnapshot, notifications: number, questions: number): QuestionCost {
  if (!(questions > 0)) throw new Error('no question was asked');
  const tables: Record<string, TableRows> = {};
  for (const [name, rows] of Object.entries(flushed.tables)) {
    if (name === 'instances') continue;
    const earlier = before.tables[name] ?? zero;
    const delta = { inserted: rows.inserted - earlier.inserted, updated: rows.updated - earlier.updated, deleted: rows.deleted - earlier.deleted };
    if (delta.inserted + delta.updated + delta.deleted === 0) continue;
    tables[name] = { inserted: delta.inserted / questions, updated: delta.updated / questions, deleted: delta.deleted / questions };
  }
  const writes = atEnd.nextXid - before.nextXid - (atEnd.heartbeats - before.heartbeats);
  return { questions, tables, notifications: notifications / questions, writeTransactions: writes / questions };
}
