/** @module Tests of the capability arithmetic. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { gatewayServerCapabilities, upstreamClientCapabilities } from './capabilities.js';

test('an upstream is promised only what the host declared, and only what can be relayed', () => {
  assert.deepEqual(upstreamClientCapabilities({}), {});
  assert.deepEqual(upstreamClientCapabilities(undefined), {});
  assert.deepEqual(
    upstreamClientCapabilities({ sampling: {}, elicitation: { form: {} }, roots: { listChanged: true }, tasks: { list: {} }, experimental: { x: {} } }),
    { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
  );
  assert.deepEqual(upstreamClientCapabilities({ elicitation: {} }), { elicitation: {} });
});

test('each capability reaches an upstream only from the host revision that defines it', () => {
  const everything = {
    sampling: { tools: {}, context: {} },
    elicitation: { form: {}, url: {} },
    roots: { listChanged: true },
    tasks: { list: {}, cancel: {} },
  };
  const cases: [string, unknown][] = [
    ['2024-11-05', { sampling: {}, roots: { listChanged: true } }],
    ['2025-03-26', { sampling: {}, roots: { listChanged: true } }],
    ['2025-06-18', { sampling: {}, elicitation: {}, roots: { listChanged: true } }],
    ['2025-11-25', { sampling: { tools: {}, context: {} }, elicitation: { form: {}, url: {} }, roots: { listChanged: true } }],
  ];
  for (const [revision, expected] of cases) assert.deepEqual(upstreamClientCapabilities(everything, revision), expected, revision);
  assert.deepEqual(upstreamClientCapabilities({ elicitation: { form: {} }, roots: {} }, '2025-11-25'), { elicitation: { form: {} }, roots: {} });
  assert.deepEqual(upstreamClientCapabilities({ sampling: { tools: {} } }, '2025-06-18'), { sampling: {} });
});

test('the gateway offers the union of its upstreams, always with listChanged', () => {
  assert.deepEqual(gatewayServerCapabilities([{ tools: {} }, { resources: { subscribe: true }, logging: {} }]), {
    tools: { listChanged: true },
    resources: { listChanged: true, subscribe: true },
    logging: {},
  });
  assert.ok(gatewayServerCapabilities([]).tools);
});
