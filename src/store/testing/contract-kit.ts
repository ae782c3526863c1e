/** @module What the QuestionStore contract's scenarios share: the context each gets, and the lines and transitions they write. */

import assert from 'node:assert/strict';

import type { Transition } from '../../questions/question.js';
import type { QuestionStore } from '../../questions/question-store.js';
import type { QuestionStoreErrorCode } from '../store-error.js';
import type { ManualClock } from './question-fixtures.js';

/** One scenario's world: a clock that moves when told, and stores opened on one fresh database. */
export interface ContractContext {
  clock: ManualClock;
  open(options?: { owner?: string }): Promise<QuestionStore>;
}

/** Registers one scenario of the contract. */
export type Scenario = (title: string, body: (context: ContractContext) => Promise<void>) => void;

export const created = { actor: 'gateway', action: 'created' } as const;

export async function rejectsWith(promise: Promise<unknown>, code: QuestionStoreErrorCode): Promise<void> {
  await assert.rejects(promise, { name: 'QuestionStoreError', code });
}

export function deliver(extra: Partial<Transition> = {}): Transition {
  return { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' }, ...extra };
}

export function answerAsHost(sessionId = 'host-1'): Transition {
  return {
    from: ['pending', 'delivered'],
    to: 'answered',
    answer: { action: 'accept', content: { confirm: true } },
    answeredBy: { kind: 'host', sessionId },
    audit: { actor: `host:${sessionId}`, action: 'answered' },
  };
}
