/** @module Bench cluster cell, answer schedule: which instance holds the call and which one answers, sample after sample (same and other alternate). */

export type AnswerKind = 'same' | 'other';

export interface ScheduledAnswer {
  kind: AnswerKind;
  /** Index of the instance whose host session makes the call (it holds the call). */
  holder: number;
  /** Index of the instance whose REST API answers the question. */
  answerer: number;
}

/**
 * Sample `index` of a run over `instances` instances: same and other alternate; each pair of samples moves to the
 * next holder; the other instance cycles through every instance but the holder, so each holder-answerer pair recurs
 * evenly.
 */
export function scheduledAnswer(index: number, instances: number): ScheduledAnswer {
  if (!Number.isInteger(instances) || instances < 2) throw new Error(`an answer on another instance needs at least 2 instances, got ${instances}`);
  const pair = Math.floor(index / 2);
  const holder = pair % instances;
  if (index % 2 === 0) return { kind: 'same', holder, answerer: holder };
  const step = 1 + (Math.floor(pair / instances) % (instances - 1));
  return { kind: 'other', holder, answerer: (holder + step) % instances };
}
