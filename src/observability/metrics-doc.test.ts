/** @module Keeps docs/metrics.md and the metrics Switchboard defines in step: names, types and labels. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { createGatewayMetrics } from './gateway-metrics.js';
import { MetricsRegistry } from './metrics.js';
import { createNotifyMetrics } from './notify-metrics.js';

const doc = readFileSync(new URL('../../docs/metrics.md', import.meta.url), 'utf8');

test('docs/metrics.md lists exactly the metrics a gateway registry exposes, with their types and labels', () => {
  const registry = new MetricsRegistry();
  createGatewayMetrics(registry);
  createNotifyMetrics(registry, () => 0);
  const defined = registry.describe().map(({ name, type, labelNames }) => `${name} ${type} [${labelNames.join(',')}]`);
  const rows = [...doc.matchAll(/^\| `([a-zA-Z_:][a-zA-Z0-9_:]*)` \| (\w+) \|([^|]*)\|/gm)];
  const documented = rows.map(([, name, type, labels]) => `${name} ${type} [${[...(labels ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1]).join(',')}]`);
  assert.ok(documented.length >= 10, 'the table was found');
  assert.deepEqual([...documented].sort(), [...defined].sort());
});
