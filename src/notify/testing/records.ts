/** @module Question records and targets for the notify tests. */

import type { NotifyTarget } from '../../config/types.js';
import type { QuestionRecord } from '../../questions/question.js';

/** A question routed to operators only, waiting (delivered), with `overrides` on top. */
export function waitingQuestion(overrides: Partial<QuestionRecord> = {}): QuestionRecord {
  return {
    id: 'q-1',
    method: 'elicitation/create',
    params: { message: 'Restart payments-api?', requestedSchema: { type: 'object', properties: { ticket: { type: 'string' } } } },
    origin: { upstream: 'desk', tool: 'restart_service', hostSessionId: 's-1' },
    route: 'operator',
    audience: 'operator',
    state: 'delivered',
    deadline: '2026-03-01T09:05:00.000Z',
    createdAt: '2026-03-01T09:00:00.000Z',
    updatedAt: '2026-03-01T09:00:00.000Z',
    ...overrides,
  };
}

/** A JSON target with every default, named `hook`, with `overrides` on top. */
export function target(overrides: Partial<NotifyTarget> = {}): NotifyTarget {
  return {
    name: 'hook',
    url: 'http://127.0.0.1:9/hook',
    format: 'json',
    headers: {},
    events: ['question.waiting', 'question.answered', 'question.expired'],
    timeoutMs: 1000,
    attempts: 3,
    ...overrides,
  };
}
