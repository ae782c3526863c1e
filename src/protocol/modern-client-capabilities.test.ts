/** @module Tests of the capabilities a modern upstream is told, per host revision. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { modernClientCapabilities } from './modern-client-capabilities.js';

const EVERYTHING = {
  sampling: { tools: {}, context: {} },
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
  tasks: { list: {} },
  experimental: { x: {} },
  extensions: { 'io.modelcontextprotocol/ui': {} },
};

test('each host revision yields the 2026 form of what it can declare, and nothing the gateway cannot relay', () => {
  const cases: [string, unknown, unknown][] = [
    ['2024-11-05', EVERYTHING, { sampling: {}, roots: {} }],
    ['2025-06-18', EVERYTHING, { elicitation: { form: {} }, sampling: {}, roots: {} }],
    ['2025-06-18', { elicitation: {} }, { elicitation: { form: {} } }],
    ['2025-11-25', EVERYTHING, { elicitation: { form: {}, url: {} }, sampling: { tools: {}, context: {} }, roots: {} }],
    ['2025-11-25', { elicitation: {} }, { elicitation: { form: {} } }],
    ['2025-11-25', { elicitation: { url: {} } }, { elicitation: { url: {} } }],
    ['2026-07-28', EVERYTHING, { elicitation: { form: {}, url: {} }, sampling: { tools: {}, context: {} }, roots: {} }],
    ['2026-07-28', { roots: {}, sampling: { tools: {} } }, { sampling: { tools: {} }, roots: {} }],
    ['2026-07-28', {}, {}],
    ['2026-07-28', undefined, {}],
    ['2026-07-28', 'nonsense', {}],
  ];
  for (const [revision, declared, expected] of cases) {
    assert.deepEqual(modernClientCapabilities(declared, revision), expected, `${revision} ${JSON.stringify(declared)}`);
  }
});
