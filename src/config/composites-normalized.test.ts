/** @module Tests of the normalized `composites:` section: defaults per step kind, file order, tool names and unshared values. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMPOSITE_DEFAULTS } from '../composite/definition.js';
import { COMPOSITE_FILE_DEFAULTS } from '../composite/schema.js';
import { COMPOSITE_NAME_PATTERN } from '../composite/validate.js';
import { parseDuration } from './duration.js';
import { parseConfigText } from './load.js';
import { TOOL_NAME_PATTERN } from './sections/upstream-tools.js';
import { ELICIT, steps, withComposites, yaml } from './testing/config-text.js';

describe('composites: normalized', () => {
  test('defaults fill every optional key, per kind', () => {
    const config = parseConfigText(
      steps(
        '      - id: lookup',
        '        tool: desk.get_incident',
        '      - id: approve',
        '        dependsOn: [lookup]',
        ELICIT,
        '      - id: incident',
        '        resource: { upstream: desk, uri: "incident://{{ input.id }}" }',
        '      - id: each',
        '        dependsOn: [approve]',
        '        forEach:',
        '          items: "{{ steps.lookup.structured.services }}"',
        '          step: { tool: desk.restart_service, arguments: { service: "{{ item }}" } }',
      ),
      '/cfg/sb.yaml',
      { env: {} },
    );
    assert.deepEqual(config.composites, [
      {
        name: 'safe_restart',
        description: 'Restart a service safely',
        inputSchema: { type: 'object' },
        steps: [
          {
            id: 'lookup',
            dependsOn: [],
            kind: 'tool',
            upstream: 'desk',
            tool: 'get_incident',
            arguments: {},
            retry: { count: COMPOSITE_DEFAULTS.retryCount, backoffMs: COMPOSITE_DEFAULTS.backoffMs },
            timeoutMs: COMPOSITE_DEFAULTS.stepTimeoutMs,
          },
          {
            id: 'approve',
            dependsOn: ['lookup'],
            kind: 'elicit',
            message: 'Go?',
            requestedSchema: { type: 'object' },
            timeoutMs: COMPOSITE_DEFAULTS.elicitTimeoutMs,
            onAccept: 'continue',
            onDecline: 'abort',
            onCancel: 'abort',
            onTimeout: 'abort',
          },
          { id: 'incident', dependsOn: [], kind: 'resource', upstream: 'desk', uri: 'incident://{{ input.id }}', timeoutMs: COMPOSITE_DEFAULTS.stepTimeoutMs },
          {
            id: 'each',
            dependsOn: ['approve'],
            kind: 'forEach',
            items: '{{ steps.lookup.structured.services }}',
            concurrency: COMPOSITE_DEFAULTS.concurrency,
            step: {
              id: 'each',
              dependsOn: [],
              kind: 'tool',
              upstream: 'desk',
              tool: 'restart_service',
              arguments: { service: '{{ item }}' },
              retry: { count: 0, backoffMs: 500 },
              timeoutMs: 60_000,
            },
          },
        ],
        limits: { maxSteps: COMPOSITE_DEFAULTS.maxSteps, maxForEachItems: COMPOSITE_DEFAULTS.maxForEachItems, totalTimeoutMs: COMPOSITE_DEFAULTS.totalTimeoutMs },
      },
    ]);
  });

  test('the written defaults are the composer\'s defaults', () => {
    assert.equal(parseDuration(COMPOSITE_FILE_DEFAULTS.totalTimeout), COMPOSITE_DEFAULTS.totalTimeoutMs);
    assert.equal(parseDuration(COMPOSITE_FILE_DEFAULTS.toolTimeout), COMPOSITE_DEFAULTS.stepTimeoutMs);
    assert.equal(parseDuration(COMPOSITE_FILE_DEFAULTS.elicitTimeout), COMPOSITE_DEFAULTS.elicitTimeoutMs);
    assert.equal(parseDuration(COMPOSITE_FILE_DEFAULTS.backoff), COMPOSITE_DEFAULTS.backoffMs);
  });

  test('the composite checks and the schema agree on what a tool name is', () => {
    assert.equal(COMPOSITE_NAME_PATTERN, TOOL_NAME_PATTERN);
  });

  test('no composites: an empty list', () => {
    assert.deepEqual(parseConfigText(yaml('upstreams:', '  desk: { command: node }'), '/cfg/sb.yaml', { env: {} }).composites, []);
  });

  test('composites keep file order, integer-like names included', () => {
    const one = ['    description: d', '    steps:', '      - id: a', '        tool: desk.status'];
    const config = parseConfigText(withComposites('  zeta:', ...one, '  "2":', ...one, '  alpha:', ...one), '/cfg/sb.yaml', { env: {} });
    assert.deepEqual(
      config.composites.map((composite) => composite.name),
      ['zeta', '2', 'alpha'],
    );
  });

  test('an elicit timeout above the 10 minute cap loads as written (the composer cuts it, with a warning)', () => {
    const config = parseConfigText(steps('      - id: a', ELICIT, '        timeout: 1h'), '/cfg/sb.yaml', { env: {} });
    const [step] = config.composites[0]?.steps ?? [];
    assert.equal(step?.kind === 'elicit' ? step.timeoutMs : undefined, 3_600_000);
  });

  test('a tool name keeps every dot after the upstream\'s', () => {
    const config = parseConfigText(steps('      - id: a', '        tool: desk.tickets.open'), '/cfg/sb.yaml', { env: {} });
    const [step] = config.composites[0]?.steps ?? [];
    assert.deepEqual(step?.kind === 'tool' ? [step.upstream, step.tool] : [], ['desk', 'tickets.open']);
  });

  test('parsed configs do not share templated values', () => {
    const text = steps('      - id: a', '        tool: desk.status', '        arguments: { list: [1] }');
    const first = parseConfigText(text, '/cfg/a.yaml', { env: {} });
    const step = first.composites[0]?.steps[0];
    if (step?.kind === 'tool') (step.arguments as { list: number[] }).list.push(2);
    const again = parseConfigText(text, '/cfg/b.yaml', { env: {} }).composites[0]?.steps[0];
    assert.deepEqual(again?.kind === 'tool' ? again.arguments : undefined, { list: [1] });
  });
});
