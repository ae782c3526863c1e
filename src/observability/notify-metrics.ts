/** @module The metrics of webhook deliveries (notify): each attempt's outcome, deliveries dropped by a full queue, and the queue's size. */

import type { MetricsRegistry } from './metrics.js';

/** How one attempt ended: the receiver took it, it will be tried again, or it was given up. */
export type NotifyAttemptOutcome = 'sent' | 'retry' | 'failed';

export interface NotifyMetrics {
  attempt(target: string, event: string, outcome: NotifyAttemptOutcome): void;
  /** A delivery refused because the queue was full (or closing). */
  dropped(target: string): void;
}

/** Defines the notify metrics in `registry`; `queued` tells the deliveries held now (read at each scrape). */
export function createNotifyMetrics(registry: MetricsRegistry, queued: () => number): NotifyMetrics {
  const attempts = registry.counter({
    name: 'switchboard_notify_attempts_total',
    help: 'Webhook delivery attempts, by target, event and outcome (sent, retry, failed).',
    labelNames: ['target', 'event', 'outcome'],
  });
  const dropped = registry.counter({
    name: 'switchboard_notify_dropped_total',
    help: 'Webhook deliveries not queued because the delivery queue was full, by target.',
    labelNames: ['target'],
  });
  registry.callbackGauge({ name: 'switchboard_notify_queue', help: 'Webhook deliveries held now: waiting, being sent, or waiting to retry.', collect: queued });
  return {
    attempt: (target, event, outcome) => attempts.inc({ target, event, outcome }),
    dropped: (target) => dropped.inc({ target }),
  };
}
