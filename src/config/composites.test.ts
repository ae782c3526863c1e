/** @module Tests of the `composites:` section: one-line errors naming the composite and the step, defaults, and the file-path form. */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { COMPOSITE_DEFAULTS } from '../composite/definition.js';
import { parseDuration } from './duration.js';
import { ConfigError, parseConfigText } from './load.js';
import { COMPOSITE_NAME_PATTERN } from '../composite/validate.js';
import { COMPOSITE_FILE_DEFAULTS } from '../composite/schema.js';
import { TOOL_NAME_PATTERN } from './sections/upstream-tools.js';

const yaml = (...lines: string[]): string => `${lines.join('\n')}\n`;
/** A config whose composites start on line 4 (line 3 is `composites:`). */
const withComposites = (...lines: string[]): string => yaml('upstreams:', '  desk: { command: node }', 'composites:', ...lines);
/** `safe_restart` with one step per line from line 7 on. */
const steps = (...lines: string[]): string => withComposites('  safe_restart:', '    description: Restart a service safely', '    steps:', ...lines);

const ELICIT = '        elicit: { message: "Go?", requestedSchema: { type: object } }';

const BAD_CASES: { name: string; text: string; message: string }[] = [
  {
    name: 'dependsOn names an unknown step',
    text: steps('      - id: approve', ELICIT, '      - id: check', '        tool: desk.status', '      - id: restart', '        dependsOn: [aprove]', '        tool: desk.restart_service'),
    message: "bad.yaml:12: composites.safe_restart.steps[2] (restart): dependsOn names unknown step 'aprove' (did you mean 'approve'?)",
  },
  {
    name: 'duplicate step ids',
    text: steps('      - id: check', '        tool: desk.status', '      - id: check', '        tool: desk.status'),
    message: "bad.yaml:9: composites.safe_restart.steps[1] (check): id 'check' is already the id of steps[0]",
  },
  {
    name: 'a cycle, named',
    text: steps(
      '      - id: a',
      '        dependsOn: [c]',
      '        tool: desk.status',
      '      - id: b',
      '        dependsOn: [a]',
      '        tool: desk.status',
      '      - id: c',
      '        dependsOn: [b]',
      '        tool: desk.status',
    ),
    message: 'bad.yaml:8: composites.safe_restart.steps[0] (a): dependsOn forms a cycle: a -> c -> b -> a',
  },
  {
    name: 'a template that does not parse, and where',
    text: steps('      - id: lookup', '        tool: desk.get_incident', '        arguments:', '          id: "{{ input.id"'),
    message: 'bad.yaml:9: composites.safe_restart.steps[0] (lookup): arguments.id has a bad template: template at character 1: "{{" is never closed with "}}"',
  },
  {
    name: 'a template reading a step that is not an ancestor',
    text: steps(
      '      - id: lookup',
      '        tool: desk.get_incident',
      '      - id: approve',
      '        elicit:',
      '          message: "Restart {{ steps.lookup.structured.service }}?"',
      '          requestedSchema: { type: object }',
    ),
    message: "bad.yaml:11: composites.safe_restart.steps[1] (approve): elicit.message refers to steps.lookup, which may not have run yet (add 'lookup' to dependsOn)",
  },
  {
    name: 'a condition reading an unknown step',
    text: steps('      - id: restart', '        condition: "{{ steps.aprove.confirm }}"', '        tool: desk.restart_service'),
    message: "bad.yaml:8: composites.safe_restart.steps[0] (restart): condition refers to steps.aprove, but there is no step 'aprove'",
  },
  {
    name: 'item outside a forEach',
    text: steps('      - id: a', '        tool: desk.status', '        arguments: { name: "{{ item.name }}" }'),
    message: 'bad.yaml:9: composites.safe_restart.steps[0] (a): arguments refers to item, which exists only in the step inside a forEach',
  },
  {
    name: 'output reading an unknown step',
    text: withComposites(
      '  safe_restart:',
      '    description: d',
      '    output: { summary: "{{ steps.sumary.text }}" }',
      '    steps:',
      '      - id: summary',
      '        tool: desk.summarize_incident',
    ),
    message: "bad.yaml:6: composites.safe_restart: output refers to steps.sumary, but there is no step 'sumary' (did you mean 'summary'?)",
  },
  {
    name: 'a tool on an upstream that is not configured',
    text: steps('      - id: restart', '        tool: dsk.restart_service'),
    message: "bad.yaml:8: composites.safe_restart.steps[0] (restart): tool names upstream 'dsk', which is not configured (configured: desk)",
  },
  {
    name: 'a forEach inner tool on an upstream that is not configured',
    text: steps('      - id: each', '        forEach:', '          items: "{{ input.services }}"', '          step: { tool: chat.post }'),
    message: "bad.yaml:10: composites.safe_restart.steps[0] (each): forEach.step.tool names upstream 'chat', which is not configured (configured: desk)",
  },
  {
    name: 'a resource on an upstream that is not configured',
    text: steps('      - id: incident', '        resource: { upstream: dsk, uri: "incident://{{ input.id }}" }'),
    message: "bad.yaml:8: composites.safe_restart.steps[0] (incident): resource.upstream names upstream 'dsk', which is not configured (configured: desk)",
  },
  {
    name: 'a resource without its uri',
    text: steps('      - id: incident', '        resource: { upstream: desk }'),
    message: 'bad.yaml:8: composites.safe_restart.steps[0] (incident).resource.uri: is required',
  },
  {
    name: 'retry on a resource step',
    text: steps('      - id: incident', '        resource: { upstream: desk, uri: "incident://1" }', '        retry: { count: 1 }'),
    message: 'bad.yaml:9: composites.safe_restart.steps[0] (incident).retry: only applies to tool steps',
  },
  {
    name: 'a composite name that is not a tool name',
    text: withComposites('  "safe restart":', '    description: d', '    steps:', '      - id: a', '        tool: desk.status'),
    message: 'bad.yaml:4: composites."safe restart": is not a valid tool name (1 to 128 letters, digits, _, - or .)',
  },
  {
    name: 'more steps than limits.maxSteps',
    text: withComposites(
      '  safe_restart:',
      '    description: d',
      '    limits: { maxSteps: 1 }',
      '    steps:',
      '      - id: a',
      '        tool: desk.status',
      '      - id: b',
      '        tool: desk.status',
    ),
    message: 'bad.yaml:7: composites.safe_restart: steps has 2 entries, more than limits.maxSteps (1)',
  },
  {
    name: 'forEach concurrency below 1',
    text: steps('      - id: each', '        forEach:', '          items: "{{ input.services }}"', '          concurrency: 0', '          step: { tool: desk.status }'),
    message: 'bad.yaml:10: composites.safe_restart.steps[0] (each).forEach.concurrency: must be at least 1 (got 0)',
  },
  {
    name: 'a step with two kinds',
    text: steps('      - id: a', '        tool: desk.status', ELICIT),
    message: 'bad.yaml:9: composites.safe_restart.steps[0] (a).elicit: cannot be with tool (a step is one of tool, resource, elicit or forEach)',
  },
  {
    name: 'a step of no kind',
    text: steps('      - id: a', '        condition: "{{ input.go }}"'),
    message: 'bad.yaml:7: composites.safe_restart.steps[0] (a): needs one of tool, resource, elicit or forEach',
  },
  {
    name: 'a forEach inner step of no kind',
    text: steps('      - id: each', '        forEach:', '          items: "{{ input.services }}"', '          step: { id: one }'),
    message: 'bad.yaml:10: composites.safe_restart.steps[0] (each).forEach.step: needs one of tool, resource or elicit',
  },
  {
    name: 'dependsOn on the forEach inner step',
    text: steps('      - id: each', '        forEach:', '          items: "{{ input.services }}"', '          step: { tool: desk.status, dependsOn: [x] }'),
    message:
      'bad.yaml:10: composites.safe_restart.steps[0] (each).forEach.step.dependsOn: unknown key (allowed: id, condition, tool, arguments, retry, resource, timeout, elicit, onAccept, onDecline, onCancel, onTimeout)',
  },
  {
    name: 'arguments on an elicit step',
    text: steps('      - id: a', ELICIT, '        arguments: {}'),
    message: 'bad.yaml:9: composites.safe_restart.steps[0] (a).arguments: only applies to tool steps',
  },
  {
    name: 'an outcome action on a tool step',
    text: steps('      - id: a', '        tool: desk.status', '        onDecline: continue'),
    message: 'bad.yaml:9: composites.safe_restart.steps[0] (a).onDecline: only applies to elicit steps',
  },
  {
    name: 'an unknown outcome action',
    text: steps('      - id: a', ELICIT, '        onTimeout: cancel'),
    message: 'bad.yaml:9: composites.safe_restart.steps[0] (a).onTimeout: must be one of continue, abort, skip-remaining (got "cancel")',
  },
  {
    name: 'timeout on a forEach step',
    text: steps('      - id: each', '        timeout: 5s', '        forEach:', '          items: "{{ input.services }}"', '          step: { tool: desk.status }'),
    message: 'bad.yaml:8: composites.safe_restart.steps[0] (each).timeout: does not apply to forEach steps (set it on forEach.step)',
  },
  {
    name: 'a misspelt step key',
    text: steps('      - id: a', '        tool: desk.status', '        dependOn: []'),
    message: 'bad.yaml:9: composites.safe_restart.steps[0] (a).dependOn: unknown key (did you mean dependsOn?)',
  },
  {
    name: 'a tool without its upstream',
    text: steps('      - id: a', '        tool: restart_service'),
    message: 'bad.yaml:8: composites.safe_restart.steps[0] (a).tool: must be <upstream>.<tool>, like desk.restart_service (got "restart_service")',
  },
  {
    name: 'a step id templates cannot name',
    text: steps('      - id: 2nd', '        tool: desk.status'),
    message: 'bad.yaml:7: composites.safe_restart.steps[0] (2nd).id: must be letters, digits, _ and -, starting with a letter or _ (templates name it as steps.<id>) (got "2nd")',
  },
  {
    name: 'a bad retry backoff',
    text: steps('      - id: a', '        tool: desk.status', '        retry: { count: 2, backoff: soon }'),
    message: 'bad.yaml:9: composites.safe_restart.steps[0] (a).retry.backoff: must be a duration like 500ms, 30s, 5m or 1h (got "soon")',
  },
  {
    name: 'no steps',
    text: withComposites('  safe_restart:', '    description: d', '    steps: []'),
    message: 'bad.yaml:6: composites.safe_restart.steps: must list at least one step',
  },
  {
    name: 'no description',
    text: withComposites('  safe_restart:', '    steps:', '      - id: a', '        tool: desk.status'),
    message: 'bad.yaml:4: composites.safe_restart.description: is required',
  },
  {
    name: 'an inputSchema that is not of an object',
    text: withComposites('  safe_restart:', '    description: d', '    inputSchema: { type: string }', '    steps:', '      - id: a', '        tool: desk.status'),
    message: 'bad.yaml:6: composites.safe_restart: inputSchema must be a JSON Schema with type: object (got type "string")',
  },
  {
    name: 'an outputSchema without output',
    text: withComposites('  safe_restart:', '    description: d', '    outputSchema: { type: object }', '    steps:', '      - id: a', '        tool: desk.status'),
    message: 'bad.yaml:6: composites.safe_restart: outputSchema needs output (the template that renders the structured result)',
  },
  {
    name: 'a misspelt limit',
    text: withComposites('  safe_restart:', '    description: d', '    limits: { maxStep: 3 }', '    steps:', '      - id: a', '        tool: desk.status'),
    message: 'bad.yaml:6: composites.safe_restart.limits.maxStep: unknown key (did you mean maxSteps?)',
  },
  {
    name: 'composites that are neither a map nor a path',
    text: withComposites('  - safe_restart'),
    message: 'bad.yaml:3: composites: must be a map of composite tools or the path of a YAML file holding one (got a list)',
  },
  {
    name: 'problems of form come before the checks of the steps as a whole',
    text: steps('      - id: a', '        tool: dsk.status', '      - id: b', '        tool: desk.status', '        timeout: never'),
    message: 'bad.yaml:11: composites.safe_restart.steps[1] (b).timeout: must be a duration like 500ms, 30s, 5m or 1h (got "never")',
  },
];

function assertConfigError(run: () => unknown, message: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ConfigError, `not a ConfigError: ${String(error)}`);
    assert.equal(error.message, message);
    return true;
  });
}

describe('composites: bad definitions give one line naming the composite and the step', () => {
  for (const { name, text, message } of BAD_CASES) {
    test(name, () => assertConfigError(() => parseConfigText(text, 'bad.yaml', { env: {} }), message));
  }
});

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

describe('composites: a path to a YAML file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-composites-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'sb.yaml');
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const main = (path: string): string => yaml('upstreams:', '  desk: { command: node }', `composites: ${path}`);

  test('is read relative to the config file, in file order', () => {
    write('good.yaml', yaml('zeta:', '  description: d', '  steps: [{ id: a, tool: desk.status }]', 'alpha:', '  description: d', '  steps: [{ id: a, tool: desk.status }]'));
    const loaded = parseConfigText(main('good.yaml'), config, { env: {} });
    assert.deepEqual(
      loaded.composites.map((composite) => composite.name),
      ['zeta', 'alpha'],
    );
  });

  test('problems in it name that file, its line, the composite and the step', () => {
    const path = write('bad.yaml', yaml('safe_restart:', '  description: d', '  steps:', '    - id: restart', '      dependsOn: [aprove]', '      tool: desk.restart_service'));
    assertConfigError(() => parseConfigText(main('bad.yaml'), config, { env: {} }), `${path}:5: composites.safe_restart.steps[0] (restart): dependsOn names unknown step 'aprove'`);
  });

  test('schema problems in it name that file too', () => {
    const path = write('typo.yaml', yaml('safe_restart:', '  description: d', '  steps:', '    - id: restart', '      tool: desk.restart_service', '      timout: 5s'));
    assertConfigError(() => parseConfigText(main('typo.yaml'), config, { env: {} }), `${path}:6: composites.safe_restart.steps[0] (restart).timout: unknown key (did you mean timeout?)`);
  });

  test('a problem in the config file comes before one in the composites file', () => {
    write('also-bad.yaml', yaml('x:', '  steps: []'));
    assertConfigError(
      () => parseConfigText(yaml('composites: also-bad.yaml', 'upstreams:', '  desk: { command: node, sharing: sometimes }'), config, { env: {} }),
      `${config}:3: upstreams.desk.sharing: must be one of per-session, shared (got "sometimes")`,
    );
  });

  test('a file that cannot be read is reported at composites', () => {
    assertConfigError(() => parseConfigText(main('absent.yaml'), config, { env: {} }), `${config}:3: composites: cannot read ${join(dir, 'absent.yaml')}: no such file`);
  });

  test('a file that is not a map of composites', () => {
    const path = write('list.yaml', yaml('- safe_restart'));
    assertConfigError(() => parseConfigText(main('list.yaml'), config, { env: {} }), `${path}:1: must be a map of composite tools (got a list)`);
  });

  test('an empty file', () => {
    const path = write('empty.yaml', yaml('# nothing yet'));
    assertConfigError(() => parseConfigText(main('empty.yaml'), config, { env: {} }), `${path}:1: the file is empty (it needs a map of composite tools)`);
  });

  test('a file that is not YAML', () => {
    const path = write('broken.yaml', yaml('safe_restart:', '  steps: [a, b'));
    assertConfigError(() => parseConfigText(main('broken.yaml'), config, { env: {} }), `${path}:3: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]`);
  });
});
