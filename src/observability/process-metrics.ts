/** @module The cheap process metrics: resident memory, start time and event-loop lag, all read at scrape time. */

import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import type { MetricsRegistry } from './metrics.js';

/**
 * Defines `process_resident_memory_bytes`, `process_start_time_seconds` and `nodejs_eventloop_lag_seconds`.
 * The lag is measured without a timer of its own: each scrape schedules a setImmediate and the time until
 * it runs is the lag shown by the next scrape (0 until then).
 */
export function registerProcessMetrics(registry: MetricsRegistry, clock: Clock = systemClock): void {
  const startTimeSeconds = clock.now() / 1000 - process.uptime();
  let lagSeconds = 0;
  let measuring = false;

  registry.callbackGauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory size in bytes.',
    collect: () => process.memoryUsage.rss(),
  });
  registry.callbackGauge({
    name: 'process_start_time_seconds',
    help: 'Start time of the process since the Unix epoch, in seconds.',
    collect: () => startTimeSeconds,
  });
  registry.callbackGauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Event-loop lag in seconds: how long a callback queued at the previous scrape waited to run.',
    collect: () => {
      if (!measuring) {
        measuring = true;
        const queuedAt = performance.now();
        setImmediate(() => {
          lagSeconds = (performance.now() - queuedAt) / 1000;
          measuring = false;
        }).unref();
      }
      return lagSeconds;
    },
  });
}
