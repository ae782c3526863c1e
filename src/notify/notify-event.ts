/** @module Which webhook event a change at the desk makes: a question routed to operators only is waiting, then answered, expired or abandoned; only this desk's own writes count. */

import type { NotifyEventType } from '../config/types.js';
import type { QuestionEvent } from '../questions/operator-desk.js';

/**
 * The event `change` makes, or undefined. Only questions whose audience is `operator` page anyone: a question put to
 * its host (`host`, or `both`, where the host is asked at the same moment) is the host's to answer. A change another
 * instance of a shared store made is that instance's to send (it is told there without `elsewhere`), so each event
 * leaves the cluster once.
 */
export function notifyEventOf(change: QuestionEvent): NotifyEventType | undefined {
  const { question } = change;
  if (change.elsewhere === true || question.audience !== 'operator') return undefined;
  switch (question.state) {
    case 'pending':
      return undefined;
    case 'delivered':
      return 'question.waiting';
    case 'expired':
      return 'question.expired';
    case 'abandoned':
      return 'question.abandoned';
    case 'answered':
    case 'declined':
    case 'cancelled':
      // Settled by the gateway (nobody could answer it) is not an answer.
      return question.answeredBy?.kind === 'gateway' ? 'question.abandoned' : 'question.answered';
  }
}
