/** @module Test helpers for question stores: a clock that moves only when told, and question records to store. */

import type { QuestionRecord } from '../../questions/question.js';

export interface ManualClock {
  now: () => Date;
  /** Moves the clock on by `ms` (default one second) and returns the new time as a timestamp. */
  advance(ms?: number): string;
  /** The current time as a timestamp. */
  iso(): string;
}

export function manualClock(start = '2026-03-01T09:00:00.000Z'): ManualClock {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    advance(ms = 1000) {
      time += ms;
      return new Date(time).toISOString();
    },
    iso: () => new Date(time).toISOString(),
  };
}

let counter = 0;

/** A pending elicitation from upstream `desk`, created at `createdAt` (default: the fixed start time); override anything. */
export function makeQuestion(overrides: Partial<QuestionRecord> = {}): QuestionRecord {
  counter += 1;
  const createdAt = overrides.createdAt ?? '2026-03-01T09:00:00.000Z';
  return {
    id: `q-${counter}-${Math.random().toString(36).slice(2, 10)}`,
    method: 'elicitation/create',
    params: { message: 'Restart payments-api?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } },
    origin: { upstream: 'desk', tool: 'desk_restart', hostSessionId: 'host-1' },
    route: 'host-then-operator',
    audience: 'host',
    state: 'pending',
    deadline: new Date(Date.parse(createdAt) + 10 * 60_000).toISOString(),
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}
