/** @module Golden tests of the registry's exposition, its label-set cap, and what it refuses to define. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CAPPED_UPDATES_METRIC, EXPOSITION_CONTENT_TYPE, MetricsRegistry } from './metrics.js';
import { sampleValue } from './testing/sample-value.js';

test('every kind of metric renders in the order defined, HELP and TYPE once per family, labels in their declared order', async () => {
  const registry = new MetricsRegistry();
  const requests = registry.counter({ name: 'app_requests_total', help: 'Requests.', labelNames: ['route', 'code'] });
  const temperature = registry.gauge({ name: 'app_temperature', help: 'Degrees "inside".\nSecond line \\ end.' });
  const latency = registry.histogram({ name: 'app_latency_seconds', help: 'Latency.', labelNames: ['route'], buckets: [0.1, 1] });
  registry.callbackGauge({ name: 'app_queue_depth', help: 'Queued jobs.', collect: () => 3 });

  requests.inc({ code: '200', route: '/x' });
  requests.inc({ route: '/x', code: '200' }, 2);
  requests.inc({ route: 'say "hi"\\\n', code: '500' });
  temperature.set({}, -1.5);
  latency.observe({ route: '/x' }, 0.05);
  latency.observe({ route: '/x' }, 0.1); // on a bound: counted in that bucket (le is "less or equal")
  latency.observe({ route: '/x' }, 0.5);
  latency.observe({ route: '/x' }, 7);
  latency.observe({ route: '/x' }, NaN); // ignored

  assert.equal(
    await registry.render(),
    [
      `# HELP ${CAPPED_UPDATES_METRIC} Updates to a metric that had reached its cap of label sets: folded into its series labelled "other" (or, for a gauge computed at scrape time, dropped).`,
      `# TYPE ${CAPPED_UPDATES_METRIC} counter`,
      '',
      '# HELP app_requests_total Requests.',
      '# TYPE app_requests_total counter',
      'app_requests_total{route="/x",code="200"} 3',
      'app_requests_total{route="say \\"hi\\"\\\\\\n",code="500"} 1',
      '',
      '# HELP app_temperature Degrees "inside".\\nSecond line \\\\ end.',
      '# TYPE app_temperature gauge',
      'app_temperature -1.5',
      '',
      '# HELP app_latency_seconds Latency.',
      '# TYPE app_latency_seconds histogram',
      'app_latency_seconds_bucket{le="0.1",route="/x"} 2',
      'app_latency_seconds_bucket{le="1",route="/x"} 3',
      'app_latency_seconds_bucket{le="+Inf",route="/x"} 4',
      'app_latency_seconds_sum{route="/x"} 7.65',
      'app_latency_seconds_count{route="/x"} 4',
      '',
      '# HELP app_queue_depth Queued jobs.',
      '# TYPE app_queue_depth gauge',
      'app_queue_depth 3',
      '',
    ].join('\n'),
  );
  assert.equal(registry.contentType, 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal(EXPOSITION_CONTENT_TYPE, registry.contentType);
});

test('a metric past its cap folds new label sets into "other" and the registry counts every folded update', async () => {
  const registry = new MetricsRegistry({ maxSeriesPerMetric: 2 });
  const calls = registry.counter({ name: 'calls_total', help: 'Calls.', labelNames: ['upstream', 'tool'] });
  const depth = registry.gauge({ name: 'depth', help: 'Depth.', labelNames: ['queue'] });
  for (let i = 0; i < 5000; i += 1) calls.inc({ upstream: 'evil', tool: `tool-${i}` });
  calls.inc({ upstream: 'evil', tool: 'tool-1' }); // a label set already recorded keeps its own series
  for (const queue of ['a', 'b', 'c', 'd']) depth.set({ queue }, 1);
  const text = await registry.render();
  assert.equal(text.split('\n').filter((l) => l.startsWith('calls_total{')).length, 3);
  assert.equal(sampleValue(text, 'calls_total{upstream="evil",tool="tool-1"}'), 2);
  assert.equal(sampleValue(text, 'calls_total{upstream="other",tool="other"}'), 4998);
  assert.equal(sampleValue(text, `${CAPPED_UPDATES_METRIC}{metric="calls_total"}`), 4998);
  assert.equal(sampleValue(text, `${CAPPED_UPDATES_METRIC}{metric="depth"}`), 2);
  assert.ok(text.length < 2000, 'the output stays small');
});

test('a callback gauge is read at each scrape; one that throws is reported, keeps its last value and spoils nothing else', async () => {
  const errors: string[] = [];
  const registry = new MetricsRegistry({ onCollectError: (metric, error) => errors.push(`${metric}: ${String(error)}`) });
  let reading: () => number = () => 1;
  registry.callbackGauge({ name: 'flaky', help: 'Flaky.', collect: () => reading() });
  registry.gauge({ name: 'fine', help: 'Fine.' }).set({}, 1);
  assert.equal(sampleValue(await registry.render(), 'flaky'), 1);
  reading = () => 9;
  assert.equal(sampleValue(await registry.render(), 'flaky'), 9);
  reading = () => {
    throw new Error('boom');
  };
  const text = await registry.render();
  assert.equal(sampleValue(text, 'flaky'), 9);
  assert.equal(sampleValue(text, 'fine'), 1);
  assert.deepEqual(errors, ['flaky: Error: boom']);
});

test('names must be valid and unique in a registry; two registries keep their metrics apart', async () => {
  const registry = new MetricsRegistry();
  registry.histogram({ name: 'lat', help: 'L.', buckets: [1] });
  assert.throws(() => registry.gauge({ name: 'lat', help: 'x' }), /already been registered/);
  assert.throws(() => registry.histogram({ name: 'h', help: 'x', labelNames: ['le'], buckets: [1] }), /reserved/);
  assert.throws(() => registry.gauge({ name: 'bad-name', help: 'x' }), /Invalid metric name/);
  assert.throws(() => registry.gauge({ name: 'g', help: 'x', labelNames: ['bad-label'] }), /Invalid label name/);
  assert.throws(() => registry.counter({ name: 'c_total', help: 'x' }).inc({}, -1), RangeError);
  assert.throws(() => registry.counter({ name: 'd_total', help: 'x' }).inc({}, Infinity), RangeError);
  assert.throws(() => new MetricsRegistry({ maxSeriesPerMetric: 0 }), RangeError);

  const other = new MetricsRegistry();
  const here = registry.counter({ name: 'shared_total', help: 'S.' });
  other.counter({ name: 'shared_total', help: 'S.' });
  here.inc({}, 2);
  assert.equal(sampleValue(await registry.render(), 'shared_total'), 2);
  assert.equal(sampleValue(await other.render(), 'shared_total'), 0);
});

test('describe() lists every family it accepted with its type and label names, in the order defined', () => {
  const registry = new MetricsRegistry();
  registry.counter({ name: 'a_total', help: 'A.', labelNames: ['x'] });
  assert.throws(() => registry.gauge({ name: 'a_total', help: 'again' }));
  registry.histogram({ name: 'b_seconds', help: 'B.', buckets: [1] });
  registry.callbackGauge({ name: 'c', help: 'C.', collect: () => 0 });
  const [capped, ...defined] = registry.describe();
  assert.deepEqual({ ...capped, help: '' }, { name: CAPPED_UPDATES_METRIC, type: 'counter', help: '', labelNames: ['metric'] });
  assert.deepEqual(defined, [
    { name: 'a_total', type: 'counter', help: 'A.', labelNames: ['x'] },
    { name: 'b_seconds', type: 'histogram', help: 'B.', labelNames: [] },
    { name: 'c', type: 'gauge', help: 'C.', labelNames: [] },
  ]);
});
