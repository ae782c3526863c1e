/** @module Tests of the process metrics: real memory, a plausible start time, and a lag that sees a blocked loop. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';

import { registerProcessMetrics } from './process-metrics.js';
import { MetricsRegistry } from './metrics.js';
import { sampleValue } from './testing/sample-value.js';

function setup() {
  const registry = new MetricsRegistry();
  registerProcessMetrics(registry);
  return registry;
}

test('resident memory is this process\'s, and the start time is when it started', async () => {
  const text = await setup().render();
  const rss = sampleValue(text, 'process_resident_memory_bytes') ?? 0;
  assert.ok(rss > 1_000_000 && rss < 64 * 1024 ** 3, `rss ${rss}`);
  const start = sampleValue(text, 'process_start_time_seconds') ?? 0;
  const expected = Date.now() / 1000 - process.uptime();
  assert.ok(Math.abs(start - expected) < 1, `start ${start}, expected about ${expected}`);
  assert.match(text, /# TYPE process_resident_memory_bytes gauge\n/);
});

test('the event-loop lag shown is how long the loop was blocked after the previous scrape', async () => {
  const registry = setup();
  assert.equal(sampleValue(await registry.render(), 'nodejs_eventloop_lag_seconds'), 0, 'nothing measured before the first scrape');
  const until = performance.now() + 60;
  while (performance.now() < until) {
    // keep the loop busy: the setImmediate queued by the scrape cannot run
  }
  await nextTurn();
  const blocked = sampleValue(await registry.render(), 'nodejs_eventloop_lag_seconds') ?? 0;
  assert.ok(blocked >= 0.055, `lag ${blocked}`);
  await nextTurn();
  await nextTurn();
  const idle = sampleValue(await registry.render(), 'nodejs_eventloop_lag_seconds') ?? 1;
  assert.ok(idle < blocked, `lag ${idle} after an idle turn, ${blocked} after a blocked one`);
});
