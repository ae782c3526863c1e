/** @module Tests of the composite checks without the config: ids, the dependsOn graph, template references, upstreams, limits. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMPOSITE_DEFAULTS } from './definition.js';
import type { CompositeDefinition, CompositeStep, ElicitStep, ForEachStep, ResourceStep, ToolStep } from './definition.js';
import { compositeToolRefs, formatCompositeProblem, validateComposite, validateComposites } from './validate.js';

const LIMITS = { maxSteps: COMPOSITE_DEFAULTS.maxSteps, maxForEachItems: COMPOSITE_DEFAULTS.maxForEachItems, totalTimeoutMs: COMPOSITE_DEFAULTS.totalTimeoutMs };

function tool(id: string, dependsOn: string[] = [], args: unknown = {}, extra: Partial<ToolStep> = {}): ToolStep {
  return { id, dependsOn, kind: 'tool', upstream: 'desk', tool: 'do_it', arguments: args, retry: { count: 0, backoffMs: 500 }, timeoutMs: 60_000, ...extra };
}

function elicit(id: string, dependsOn: string[] = [], message = 'Go?', extra: Partial<ElicitStep> = {}): ElicitStep {
  return {
    id,
    dependsOn,
    kind: 'elicit',
    message,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    timeoutMs: 300_000,
    onAccept: 'continue',
    onDecline: 'abort',
    onCancel: 'abort',
    onTimeout: 'abort',
    ...extra,
  };
}

function resource(id: string, dependsOn: string[], uri: string, upstream = 'desk'): ResourceStep {
  return { id, dependsOn, kind: 'resource', upstream, uri, timeoutMs: 60_000 };
}

function forEach(id: string, dependsOn: string[], items: string, step: ToolStep | ResourceStep | ElicitStep, concurrency = 4): ForEachStep {
  return { id, dependsOn, kind: 'forEach', items, concurrency, step };
}

function composite(steps: CompositeStep[], extra: Partial<CompositeDefinition> = {}): CompositeDefinition {
  return { name: 'job', description: 'A job', inputSchema: { type: 'object' }, steps, limits: LIMITS, ...extra };
}

/** The problems as `path: message` lines (path relative to the composite). */
function problems(definition: CompositeDefinition, upstreams: string[] = ['desk']): string[] {
  return validateComposite(definition, { upstreams }).map((problem) => `${problem.path.join('/')}: ${problem.message}`);
}

describe('validateComposite', () => {
  test('a good definition has no problems', () => {
    const good = composite(
      [
        tool('lookup', [], { id: '{{ input.id }}' }),
        elicit('approve', ['lookup'], 'Restart {{ steps.lookup.structured.service }}?'),
        tool('restart', ['approve'], { service: '{{ steps.lookup.structured.service }}', ticket: '{{ steps.approve.content.ticket }}' }, { condition: '{{ steps.approve.content.confirm }}' }),
        forEach('notify', ['lookup'], '{{ steps.lookup.structured.watchers }}', tool('notify_one', [], { to: '{{ item }}', n: '{{ index }}', about: '{{ steps.lookup.text }}' })),
      ],
      { output: { restarted: '{{ steps.restart.structured }}', all: '{{ steps | json }}' }, outputSchema: { type: 'object' } },
    );
    assert.deepEqual(problems(good), []);
  });

  const cases: { name: string; definition: CompositeDefinition; expected: string[] }[] = [
    {
      name: 'unknown step in dependsOn, with a close match',
      definition: composite([elicit('approve'), tool('restart', ['aprove'])]),
      expected: ["steps/1/dependsOn/0: dependsOn names unknown step 'aprove' (did you mean 'approve'?)"],
    },
    {
      name: 'unknown step in dependsOn, nothing close',
      definition: composite([tool('a'), tool('b', ['zzz'])]),
      expected: ["steps/1/dependsOn/0: dependsOn names unknown step 'zzz'"],
    },
    {
      name: 'a step depending on itself, or twice on one step',
      definition: composite([tool('a'), tool('b', ['b', 'a', 'a'])]),
      expected: ['steps/1/dependsOn/0: dependsOn names the step itself', "steps/1/dependsOn/2: dependsOn names 'a' twice"],
    },
    {
      name: 'duplicate step ids',
      definition: composite([tool('a'), tool('b'), tool('a')]),
      expected: ["steps/2/id: id 'a' is already the id of steps[0]"],
    },
    {
      name: 'an inner forEach id that clashes',
      definition: composite([tool('a'), forEach('each', [], '{{ input.list }}', tool('a'))]),
      expected: ["steps/1/forEach/step/id: forEach.step.id 'a' is already the id of steps[0]"],
    },
    {
      name: 'a step id templates cannot name',
      definition: composite([tool('9lives')]),
      expected: ["steps/0/id: id '9lives' must be letters, digits, _ and -, starting with a letter or _ (templates name it as steps.<id>)"],
    },
    {
      name: 'a cycle of three, named in dependsOn order from its first step',
      definition: composite([tool('a', ['c']), tool('b', ['a']), tool('c', ['b']), tool('d', ['a'])]),
      expected: ['steps/0/dependsOn: dependsOn forms a cycle: a -> c -> b -> a'],
    },
    {
      name: 'two separate cycles',
      definition: composite([tool('a', ['b']), tool('b', ['a']), tool('c', ['d']), tool('d', ['c'])]),
      expected: ['steps/0/dependsOn: dependsOn forms a cycle: a -> b -> a', 'steps/2/dependsOn: dependsOn forms a cycle: c -> d -> c'],
    },
    {
      name: 'a template that does not parse, with where',
      definition: composite([tool('a', [], { query: { text: 'x {{ input.q + 1 }}' } })]),
      expected: ['steps/0/arguments: arguments.query.text has a bad template: template at character 3: unexpected "+ 1 }}"; expected "}}"'],
    },
    {
      name: 'a condition that does not parse',
      definition: composite([tool('a', [], {}, { condition: '{{ nope }}' })]),
      expected: ['steps/0/condition: condition has a bad template: template at character 1: unknown name "nope"; a path starts at input, steps, item or index'],
    },
    {
      name: 'a reference to a step that is not an ancestor',
      definition: composite([tool('lookup'), elicit('approve', [], 'Restart {{ steps.lookup.text }}?')]),
      expected: ["steps/1/elicit/message: elicit.message refers to steps.lookup, which may not have run yet (add 'lookup' to dependsOn)"],
    },
    {
      name: 'ancestors count through dependsOn, not only direct ones',
      definition: composite([tool('a'), tool('b', ['a']), tool('c', ['b'], { x: '{{ steps.a.text }}' }), tool('d', [], { x: '{{ steps.c.text }}' })]),
      expected: ["steps/3/arguments: arguments refers to steps.c, which may not have run yet (add 'c' to dependsOn)"],
    },
    {
      name: 'a reference to an unknown step',
      definition: composite([tool('lookup'), tool('b', ['lookup'], { x: ['{{ steps.lokup.text }}'] })]),
      expected: ["steps/1/arguments: arguments refers to steps.lokup, but there is no step 'lokup' (did you mean 'lookup'?)"],
    },
    {
      name: 'a reference to the step itself',
      definition: composite([tool('a', [], {}, { condition: '{{ steps.a.isError }}' })]),
      expected: ["steps/0/condition: condition refers to steps.a, the step's own output, which does not exist yet"],
    },
    {
      name: 'a reference to all of steps in a step',
      definition: composite([tool('a', [], { x: '{{ steps | json }}' })]),
      expected: ['steps/0/arguments: arguments refers to all of steps; name the step it needs (steps.<id>) and list it in dependsOn'],
    },
    {
      name: 'item outside a forEach, and in forEach.items',
      definition: composite([tool('a', [], { x: '{{ item }}' }), forEach('each', [], '{{ index }}', tool('one'))]),
      expected: [
        'steps/0/arguments: arguments refers to item, which exists only in the step inside a forEach',
        'steps/1/forEach/items: forEach.items refers to index, which exists only in the step inside a forEach',
      ],
    },
    {
      name: 'the inner step reads the forEach ancestors but not the forEach itself',
      definition: composite([tool('list'), forEach('each', ['list'], '{{ steps.list.structured }}', elicit('ask', [], '{{ steps.list.text }} {{ steps.each }}'))]),
      expected: ["steps/1/forEach/step/elicit/message: forEach.step.elicit.message refers to steps.each, the step's own output, which does not exist yet"],
    },
    {
      name: 'a reference to or dependency on the step inside a forEach',
      definition: composite([forEach('each', [], '{{ input.list }}', tool('one')), tool('after', ['one'], { x: '{{ steps.one }}' })]),
      expected: [
        "steps/1/dependsOn/0: dependsOn names 'one', the step inside forEach 'each' (depend on 'each')",
        "steps/1/arguments: arguments refers to steps.one, the step inside forEach 'each'; its results are steps.each",
      ],
    },
    {
      name: 'output naming an unknown step',
      definition: composite([tool('a')], { output: { summary: '{{ steps.b.text }}' } }),
      expected: ["output: output refers to steps.b, but there is no step 'b'"],
    },
    {
      name: 'output that does not parse',
      definition: composite([tool('a')], { output: ['ok', '{{ steps.a.text | upper }}'] }),
      expected: ['output: output[1] has a bad template: template at character 1: unknown filter "upper"; the filters are json, length and default(…)'],
    },
    {
      name: 'a resource uri that reads a step it does not depend on, and a resource on an unknown upstream',
      definition: composite([tool('list'), resource('incident', [], 'incident://{{ steps.list.text }}'), forEach('each', ['list'], '{{ steps.list.structured }}', resource('one', [], '{{ item.uri }}', 'dsk'))]),
      expected: [
        "steps/1/resource/uri: resource.uri refers to steps.list, which may not have run yet (add 'list' to dependsOn)",
        "steps/2/forEach/step/resource/upstream: forEach.step.resource.upstream names upstream 'dsk', which is not configured (configured: desk)",
      ],
    },
    {
      name: 'an upstream that is not configured',
      definition: composite([tool('a', [], {}, { upstream: 'dsk' }), forEach('each', [], '{{ input.list }}', tool('one', [], {}, { upstream: 'other' }))]),
      expected: [
        "steps/0/tool: tool names upstream 'dsk', which is not configured (configured: desk)",
        "steps/1/forEach/step/tool: forEach.step.tool names upstream 'other', which is not configured (configured: desk)",
      ],
    },
    {
      name: 'more steps than limits.maxSteps',
      definition: composite([tool('a'), tool('b'), forEach('c', [], '{{ input.l }}', tool('d'))], { limits: { ...LIMITS, maxSteps: 2 } }),
      expected: ['steps: steps has 3 entries, more than limits.maxSteps (2)'],
    },
    {
      name: 'forEach concurrency below 1',
      definition: composite([forEach('each', [], '{{ input.list }}', tool('one'), 0)]),
      expected: ['steps/0/forEach/concurrency: forEach.concurrency must be a whole number, at least 1 (got 0)'],
    },
    {
      name: 'a name that is not a tool name',
      definition: composite([tool('a')], { name: 'safe restart' }),
      expected: [': is not a valid tool name (1 to 128 letters, digits, _, - or .)'],
    },
    {
      name: 'schemas that are not objects, outputSchema without output',
      definition: composite([tool('a')], { inputSchema: { type: 'string' }, outputSchema: { type: 'object' } }),
      expected: ['inputSchema: inputSchema must be a JSON Schema with type: object (got type "string")', 'outputSchema: outputSchema needs output (the template that renders the structured result)'],
    },
    {
      name: 'no steps',
      definition: composite([]),
      expected: ['steps: steps must have at least one step'],
    },
  ];

  for (const { name, definition, expected } of cases) {
    test(name, () => {
      assert.deepEqual(problems(definition), expected);
    });
  }

  test('an elicit timeout above the cap is not a problem (the composer cuts it at run time)', () => {
    assert.deepEqual(problems(composite([elicit('ask', [], 'Go?', { timeoutMs: 60 * 60 * 1000 })])), []);
  });

  test('without upstreams given, upstreams are not checked', () => {
    assert.deepEqual(validateComposite(composite([tool('a', [], {}, { upstream: 'anything' })])), []);
  });

  test('problems name the composite and the top-level step', () => {
    const [problem] = validateComposite(composite([elicit('approve'), tool('restart', ['aprove'])], { name: 'safe_restart' }));
    assert.deepEqual(problem?.step, { index: 1, id: 'restart' });
    assert.equal(problem?.composite, 'safe_restart');
    assert.equal(
      formatCompositeProblem(problem as NonNullable<typeof problem>),
      "composite safe_restart, step restart (steps[1]): dependsOn names unknown step 'aprove' (did you mean 'approve'?)",
    );
  });
});

describe('validateComposites', () => {
  test('finds a name used twice', () => {
    const definition = composite([tool('a')]);
    assert.deepEqual(
      validateComposites([definition, definition]).map((problem) => formatCompositeProblem(problem)),
      ['composite job: is defined twice (composite names must be unique)'],
    );
  });
});

describe('compositeToolRefs', () => {
  test('lists every tool called, inner forEach steps under the forEach id', () => {
    const definition = composite([tool('a'), elicit('ask', ['a']), forEach('each', ['ask'], '{{ input.l }}', tool('one', [], {}, { upstream: 'chat', tool: 'post.message' }))]);
    assert.deepEqual(compositeToolRefs([definition]), [
      { composite: 'job', step: 'a', upstream: 'desk', tool: 'do_it' },
      { composite: 'job', step: 'each', upstream: 'chat', tool: 'post.message' },
    ]);
  });
});
