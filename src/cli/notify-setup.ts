/** @module Composes the notifier `serve` runs: the config's targets, audit lines on the question store, the metrics, and the desk's changes. */

import type { NormalizedConfig } from '../config/types.js';
import type { Logger } from '../core/log.js';
import { Notifier } from '../notify/notifier.js';
import type { MetricsRegistry } from '../observability/metrics.js';
import { createNotifyMetrics } from '../observability/notify-metrics.js';
import type { QuestionDesk } from '../questions/desk.js';
import type { QuestionStore } from '../questions/question-store.js';

/** How long a stopping gateway lets webhook deliveries under way end before it gives them up. */
export const NOTIFY_FLUSH_MS = 2000;

export interface NotifySetup {
  notifier: Notifier;
  /** Stops hearing the desk, flushes briefly, gives up the rest. */
  close(): Promise<void>;
}

export function setUpNotifier(config: NormalizedConfig, parts: { desk: QuestionDesk; store: QuestionStore; registry: MetricsRegistry; logger: Logger }): NotifySetup {
  let queued = (): number => 0;
  const metrics = createNotifyMetrics(parts.registry, () => queued());
  const notifier = new Notifier({
    targets: config.notify,
    audit: (entry) => parts.store.audit(entry),
    logger: parts.logger,
    metrics,
    ...(config.http.publicUrl === undefined ? {} : { consoleUrl: config.http.publicUrl }),
  });
  queued = () => notifier.queued;
  const unsubscribe = parts.desk.subscribe(notifier.handle);
  if (config.notify.length > 0) parts.logger.log('info', `webhooks: ${config.notify.map((target) => `${target.name} (${target.format}: ${target.events.join(', ')})`).join('; ')}`);
  return {
    notifier,
    async close() {
      unsubscribe();
      await notifier.close(NOTIFY_FLUSH_MS);
    },
  };
}
