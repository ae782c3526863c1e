/** @module Golden tests of the registry's exposition, and of what it refuses to define. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CAPPED_UPDATES_METRIC, MetricsRegistry } from './registry.js';
import { sampleValue } from './testing/sample-value.js';

test('every kind of metric renders in the order defined, HELP and TYPE once per family', () => {
  const registry = new MetricsRegistry();
  const requests = registry.counter({ name: 'app_requests_total', help: 'Requests.', labelNames: ['route', 'code'] });
  const temperature = registry.gauge({ name: 'app_temperature', help: 'Degrees.' });
  const latency = registry.histogram({ name: 'app_latency_seconds', help: 'Latency.', labelNames: ['route'], buckets: [0.1, 1] });
  registry.callbackGauge({ name: 'app_queue_depth', help: 'Queued jobs.', labelNames: ['queue'], collect: () => [{ labels: { queue: 'a' }, value: 3 }] });

  requests.inc({ route: '/x', code: '200' });
  requests.inc({ code: '200', route: '/x' }, 2);
  requests.inc({ route: 'say "hi"\\\n', code: '500' });
  temperature.set({}, -1.5);
  latency.observe({ route: '/x' }, 0.05);
  latency.observe({ route: '/x' }, 0.1); // on a bound: counted in that bucket (le is "less or equal")
  latency.observe({ route: '/x' }, 0.5);
  latency.observe({ route: '/x' }, 7);

  assert.equal(
    registry.render(),
    [
      `# HELP ${CAPPED_UPDATES_METRIC} Updates to a metric that had reached its cap of label sets: folded into its series labelled "other" (or, for a gauge computed at scrape time, dropped).`,
      `# TYPE ${CAPPED_UPDATES_METRIC} counter`,
      '# HELP app_requests_total Requests.',
      '# TYPE app_requests_total counter',
      'app_requests_total{route="/x",code="200"} 3',
      'app_requests_total{route="say \\"hi\\"\\\\\\n",code="500"} 1',
      '# HELP app_temperature Degrees.',
      '# TYPE app_temperature gauge',
      'app_temperature -1.5',
      '# HELP app_latency_seconds Latency.',
      '# TYPE app_latency_seconds histogram',
      'app_latency_seconds_bucket{route="/x",le="0.1"} 2',
      'app_latency_seconds_bucket{route="/x",le="1"} 3',
      'app_latency_seconds_bucket{route="/x",le="+Inf"} 4',
      'app_latency_seconds_sum{route="/x"} 7.65',
      'app_latency_seconds_count{route="/x"} 4',
      '# HELP app_queue_depth Queued jobs.',
      '# TYPE app_queue_depth gauge',
      'app_queue_depth{queue="a"} 3',
      '',
    ].join('\n'),
  );
});

test('each family has exactly one HELP and one TYPE line however many series it has', () => {
  const registry = new MetricsRegistry();
  const counter = registry.counter({ name: 'c_total', help: 'C.', labelNames: ['k'] });
  const histogram = registry.histogram({ name: 'h_seconds', help: 'H.', labelNames: ['k'], buckets: [1] });
  for (const k of ['a', 'b', 'c']) {
    counter.inc({ k });
    histogram.observe({ k }, 2);
  }
  const lines = registry.render().split('\n');
  for (const name of ['c_total', 'h_seconds']) {
    assert.equal(lines.filter((l) => l.startsWith(`# HELP ${name} `)).length, 1, name);
    assert.equal(lines.filter((l) => l.startsWith(`# TYPE ${name} `)).length, 1, name);
  }
  assert.equal(lines.filter((l) => l.startsWith('h_seconds_bucket{')).length, 6);
});

test('a metric past its cap folds new label sets into "other" and the registry counts every folded update', () => {
  const registry = new MetricsRegistry({ maxSeriesPerMetric: 2 });
  const calls = registry.counter({ name: 'calls_total', help: 'Calls.', labelNames: ['upstream', 'tool'] });
  for (let i = 0; i < 5000; i += 1) calls.inc({ upstream: 'evil', tool: `tool-${i}` });
  const text = registry.render();
  assert.equal(text.split('\n').filter((l) => l.startsWith('calls_total{')).length, 3);
  assert.equal(sampleValue(text, 'calls_total{upstream="other",tool="other"}'), 4998);
  assert.equal(sampleValue(text, `${CAPPED_UPDATES_METRIC}{metric="calls_total"}`), 4998);
  assert.ok(text.length < 2000, 'the output stays small');
});

test('a callback gauge is read at each scrape; past the cap its extra label sets are dropped and counted', () => {
  const registry = new MetricsRegistry({ maxSeriesPerMetric: 2 });
  let depth = 1;
  registry.callbackGauge({ name: 'depth', help: 'Depth.', collect: () => depth });
  registry.callbackGauge({
    name: 'per_queue',
    help: 'Per queue.',
    labelNames: ['queue'],
    collect: () => ['a', 'b', 'c', 'a'].map((queue, i) => ({ labels: { queue }, value: i })),
  });
  assert.equal(sampleValue(registry.render(), 'depth'), 1);
  depth = 9;
  const text = registry.render();
  assert.equal(sampleValue(text, 'depth'), 9);
  // a repeated label set keeps its last value (a series must not appear twice); c is beyond the cap of 2
  assert.deepEqual(text.split('\n').filter((l) => l.startsWith('per_queue')), ['per_queue{queue="a"} 3', 'per_queue{queue="b"} 1']);
  // one dropped label set per scrape, counted in the scrape that dropped it
  assert.equal(sampleValue(text, `${CAPPED_UPDATES_METRIC}{metric="per_queue"}`), 2);
});

test('a callback that throws empties its family in that scrape, is reported, and spoils nothing else', () => {
  const errors: string[] = [];
  const registry = new MetricsRegistry({ onCollectError: (metric, error) => errors.push(`${metric}: ${String(error)}`) });
  registry.callbackGauge({ name: 'broken', help: 'Broken.', collect: () => { throw new Error('boom'); } });
  registry.gauge({ name: 'fine', help: 'Fine.' }).set({}, 1);
  const text = registry.render();
  assert.match(text, /# TYPE broken gauge\n# HELP fine/);
  assert.equal(sampleValue(text, 'fine'), 1);
  assert.deepEqual(errors, ['broken: Error: boom']);
});

test('names must be valid and unique, including the names a histogram writes', () => {
  const registry = new MetricsRegistry();
  registry.histogram({ name: 'lat', help: 'L.', buckets: [1] });
  assert.throws(() => registry.gauge({ name: 'lat', help: 'x' }), /already used/);
  assert.doesNotThrow(() => registry.counter({ name: 'lat_count_total', help: 'x' }));
  assert.throws(() => registry.gauge({ name: 'lat_count', help: 'x' }), /the name lat_count is already used/);
  assert.throws(() => registry.histogram({ name: 'h', help: 'x', labelNames: ['le'], buckets: [1] }), /reserved/);
  assert.throws(() => registry.gauge({ name: 'bad-name', help: 'x' }), /invalid metric name/);
  assert.throws(() => registry.gauge({ name: 'g', help: 'x', labelNames: ['bad-label'] }), /invalid label name/);
  assert.throws(() => registry.counter({ name: 'requests', help: 'x' }), /ends with _total/);
  assert.throws(() => new MetricsRegistry({ maxSeriesPerMetric: 0 }), RangeError);
});

test('describe() lists every family with its type and label names', () => {
  const registry = new MetricsRegistry();
  registry.counter({ name: 'a_total', help: 'A.', labelNames: ['x'] });
  registry.histogram({ name: 'b_seconds', help: 'B.', buckets: [1] });
  assert.deepEqual(
    registry.describe().slice(1).map(({ name, type, labelNames }) => ({ name, type, labelNames })),
    [
      { name: 'a_total', type: 'counter', labelNames: ['x'] },
      { name: 'b_seconds', type: 'histogram', labelNames: [] },
    ],
  );
});
