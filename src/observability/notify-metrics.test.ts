/** @module Tests that the webhook delivery metrics move the series they should. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MetricsRegistry } from './metrics.js';
import { createNotifyMetrics } from './notify-metrics.js';
import { sampleValue } from './testing/sample-value.js';

test('attempts by target, event and outcome; drops by target; the queue read at scrape time', async () => {
  const registry = new MetricsRegistry();
  let held = 3;
  const metrics = createNotifyMetrics(registry, () => held);
  metrics.attempt('pager', 'question.waiting', 'retry');
  metrics.attempt('pager', 'question.waiting', 'sent');
  metrics.attempt('pager', 'question.waiting', 'sent');
  metrics.dropped('slack');
  const text = await registry.render();
  assert.equal(sampleValue(text, 'switchboard_notify_attempts_total{target="pager",event="question.waiting",outcome="sent"}'), 2);
  assert.equal(sampleValue(text, 'switchboard_notify_attempts_total{target="pager",event="question.waiting",outcome="retry"}'), 1);
  assert.equal(sampleValue(text, 'switchboard_notify_dropped_total{target="slack"}'), 1);
  assert.equal(sampleValue(text, 'switchboard_notify_queue'), 3);
  held = 0;
  assert.equal(sampleValue(await registry.render(), 'switchboard_notify_queue'), 0);
});
