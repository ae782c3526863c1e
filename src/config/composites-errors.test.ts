/** @module Tests of `composites:` errors: one line naming the file, the line, the composite and the step. */

import { describe, test } from 'node:test';
import { parseConfigText } from './load.js';
import { assertConfigError } from './testing/assert-config-error.js';
import { ELICIT, steps, withComposites } from './testing/config-text.js';

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

describe('composites: bad definitions give one line naming the composite and the step', () => {
  for (const { name, text, message } of BAD_CASES) {
    test(name, () => assertConfigError(() => parseConfigText(text, 'bad.yaml', { env: {} }), message));
  }
});
