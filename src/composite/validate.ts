/**
 * @module Checks of composite definitions that need no schema library: step ids, the dependsOn graph
 * (unknown steps, cycles), what each template may refer to, configured upstreams, and the limits.
 * The config layer runs it at load and reports its problems as config errors; anything else that builds
 * definitions can run it too.
 */

import { isObject } from '../protocol/jsonrpc.js';
import type { CompositeDefinition, CompositeStep, ElicitStep, ResourceStep, ToolStep } from './definition.js';
import { templateRefs } from './template/refs.js';

/** Where a problem is, relative to its composite, in the layout of the config file: `['steps', 2, 'dependsOn', 0]`, `['output']`. */
export type CompositePath = (string | number)[];

export interface CompositeProblem {
  /** The composite's name. */
  composite: string;
  /** The top-level step the problem is in (a forEach step for its inner step); absent for the composite as a whole. */
  step?: { index: number; id: string };
  /** Where, for pointing at a line (see CompositePath). */
  path: CompositePath;
  /** One line that names the key it is about: `dependsOn names unknown step 'aprove' (did you mean 'approve'?)`. */
  message: string;
}

export interface ValidateOptions {
  /** The configured upstream names; when given, a tool step naming another upstream is a problem. */
  upstreams?: readonly string[];
}

/** A step id: what a template's `steps.<id>` can name (template.ts names: letters, digits, `_` and `-`). */
export const STEP_ID_PATTERN = '^[A-Za-z_][A-Za-z0-9_-]*$';
/** A composite name: an MCP tool name (the same rule as the config's TOOL_NAME_PATTERN). */
export const COMPOSITE_NAME_PATTERN = '^[A-Za-z0-9_.-]{1,128}$';

const STEP_ID_RE = new RegExp(STEP_ID_PATTERN);
const COMPOSITE_NAME_RE = new RegExp(COMPOSITE_NAME_PATTERN);

/** One tool a composite calls: the gateway checks at start that the upstream has it. `step` is the top-level step's id. */
export interface CompositeToolRef {
  composite: string;
  step: string;
  upstream: string;
  tool: string;
}

/** Every upstream tool the definitions call (forEach inner steps under their forEach step's id), in definition order. */
export function compositeToolRefs(definitions: readonly CompositeDefinition[]): CompositeToolRef[] {
  const refs: CompositeToolRef[] = [];
  for (const definition of definitions) {
    for (const step of definition.steps) {
      const called = step.kind === 'forEach' ? step.step : step;
      if (called.kind === 'tool') refs.push({ composite: definition.name, step: step.id, upstream: called.upstream, tool: called.tool });
    }
  }
  return refs;
}

/** `composite safe_restart, step restart (steps[2]): dependsOn names unknown step 'aprove'`: a problem on one line, outside the config. */
export function formatCompositeProblem(problem: CompositeProblem): string {
  const step = problem.step === undefined ? '' : `, step ${problem.step.id} (steps[${problem.step.index}])`;
  return `composite ${problem.composite}${step}: ${problem.message}`;
}

/** The problems of all definitions, in definition order; also finds two composites with the same name. */
export function validateComposites(definitions: readonly CompositeDefinition[], options: ValidateOptions = {}): CompositeProblem[] {
  const problems: CompositeProblem[] = [];
  const seen = new Set<string>();
  for (const definition of definitions) {
    if (seen.has(definition.name)) problems.push({ composite: definition.name, path: [], message: `is defined twice (composite names must be unique)` });
    seen.add(definition.name);
    problems.push(...validateComposite(definition, options));
  }
  return problems;
}

interface StepInfo {
  index: number;
  /** Set for the step inside a forEach: the forEach step's id. */
  insideForEach?: string;
}

/** The problems of one definition: names, the dependsOn graph, templates, upstreams and limits. */
export function validateComposite(definition: CompositeDefinition, options: ValidateOptions = {}): CompositeProblem[] {
  const problems: CompositeProblem[] = [];
  const composite = definition.name;
  const atComposite = (path: CompositePath, message: string): void => {
    problems.push({ composite, path, message });
  };
  const atStep = (index: number, path: CompositePath, message: string): void => {
    const step = definition.steps[index] as CompositeStep;
    problems.push({ composite, step: { index, id: step.id }, path: ['steps', index, ...path], message });
  };

  if (!COMPOSITE_NAME_RE.test(composite)) atComposite([], 'is not a valid tool name (1 to 128 letters, digits, _, - or .)');
  checkObjectSchema(definition.inputSchema, 'inputSchema', atComposite);
  if (definition.outputSchema !== undefined) {
    checkObjectSchema(definition.outputSchema, 'outputSchema', atComposite);
    if (definition.output === undefined) atComposite(['outputSchema'], 'outputSchema needs output (the template that renders the structured result)');
  }
  const { steps, limits } = definition;
  if (steps.length === 0) atComposite(['steps'], 'steps must have at least one step');
  if (steps.length > limits.maxSteps) atComposite(['steps'], `steps has ${steps.length} entries, more than limits.maxSteps (${limits.maxSteps})`);

  // Ids: one per step, the forEach inner steps' included (a run record names them).
  const ids = new Map<string, StepInfo>();
  const claim = (id: string, info: StepInfo, path: CompositePath): void => {
    if (!STEP_ID_RE.test(id)) {
      atStep(info.index, path, `${labelOf(path)} ${quote(id)} must be letters, digits, _ and -, starting with a letter or _ (templates name it as steps.<id>)`);
    }
    const holder = ids.get(id);
    if (holder !== undefined) atStep(info.index, path, `${labelOf(path)} ${quote(id)} is already the id of ${describeHolder(holder)}`);
    else ids.set(id, info);
  };
  steps.forEach((step, index) => {
    claim(step.id, { index }, ['id']);
    if (step.kind === 'forEach' && step.step.id !== step.id) claim(step.step.id, { index, insideForEach: step.id }, ['forEach', 'step', 'id']);
  });
  const topLevel = new Map<string, number>();
  steps.forEach((step, index) => {
    if (!topLevel.has(step.id)) topLevel.set(step.id, index);
  });

  // dependsOn: known top-level steps, not itself, no repeats.
  const edges: number[][] = steps.map(() => []);
  steps.forEach((step, index) => {
    const named = new Set<string>();
    step.dependsOn.forEach((dependency, position) => {
      const path = ['dependsOn', position];
      const target = topLevel.get(dependency);
      const info = ids.get(dependency);
      if (dependency === step.id) atStep(index, path, 'dependsOn names the step itself');
      else if (named.has(dependency)) atStep(index, path, `dependsOn names ${quote(dependency)} twice`);
      else if (target === undefined && info?.insideForEach !== undefined) {
        atStep(index, path, `dependsOn names ${quote(dependency)}, the step inside forEach ${quote(info.insideForEach)} (depend on ${quote(info.insideForEach)})`);
      } else if (target === undefined) atStep(index, path, `dependsOn names unknown step ${quote(dependency)}${didYouMean(dependency, [...topLevel.keys()])}`);
      else (edges[index] as number[]).push(target);
      named.add(dependency);
    });
  });
  for (const cycle of findCycles(edges)) {
    const first = cycle[0] as number;
    const names = [...cycle, first].map((index) => (steps[index] as CompositeStep).id);
    atStep(first, ['dependsOn'], `dependsOn forms a cycle: ${names.join(' -> ')}`);
  }

  // Templates: what each may refer to.
  const ancestors = steps.map((_, index) => reachable(edges, index));
  steps.forEach((step, index) => {
    const visible = ancestors[index] as Set<number>;
    const check = (value: unknown, path: CompositePath, inForEach: boolean): void => {
      for (const message of templateProblems(value, labelOf(path), { steps, ids, visible, inForEach, selfIndex: index })) atStep(index, path, message);
    };
    if (step.condition !== undefined) check(step.condition, ['condition'], false);
    if (step.kind === 'forEach') {
      check(step.items, ['forEach', 'items'], false);
      if (!(Number.isInteger(step.concurrency) && step.concurrency >= 1)) {
        atStep(index, ['forEach', 'concurrency'], `forEach.concurrency must be a whole number, at least 1 (got ${String(step.concurrency)})`);
      }
      const inner = step.step;
      if (inner.dependsOn.length > 0) atStep(index, ['forEach', 'step', 'dependsOn'], 'forEach.step cannot have dependsOn (put it on the forEach step)');
      if (inner.condition !== undefined) check(inner.condition, ['forEach', 'step', 'condition'], true);
      checkKind(inner, ['forEach', 'step'], true);
    } else checkKind(step, [], false);

    function checkUpstream(upstream: string, path: CompositePath): void {
      if (options.upstreams === undefined || options.upstreams.includes(upstream)) return;
      const known = options.upstreams.length === 0 ? 'none are' : `configured: ${options.upstreams.join(', ')}`;
      atStep(index, path, `${labelOf(path)} names upstream ${quote(upstream)}, which is not configured (${known})`);
    }

    function checkKind(called: ToolStep | ResourceStep | ElicitStep, base: CompositePath, inForEach: boolean): void {
      if (called.kind === 'tool') {
        check(called.arguments, [...base, 'arguments'], inForEach);
        checkUpstream(called.upstream, [...base, 'tool']);
      } else if (called.kind === 'resource') {
        check(called.uri, [...base, 'resource', 'uri'], inForEach);
        checkUpstream(called.upstream, [...base, 'resource', 'upstream']);
      } else {
        check(called.message, [...base, 'elicit', 'message'], inForEach);
        check(called.requestedSchema, [...base, 'elicit', 'requestedSchema'], inForEach);
      }
    }
  });

  // The output runs after every step: it may name any of them.
  if (definition.output !== undefined) {
    const all = new Set(steps.map((_, index) => index));
    for (const message of templateProblems(definition.output, 'output', { steps, ids, visible: all, inForEach: false, allowAllSteps: true })) {
      atComposite(['output'], message);
    }
  }
  return problems;
}

function checkObjectSchema(schema: unknown, key: string, report: (path: CompositePath, message: string) => void): void {
  if (!isObject(schema)) report([key], `${key} must be a JSON Schema object (a map)`);
  else if (schema['type'] !== 'object') report([key], `${key} must be a JSON Schema with type: object (got type ${JSON.stringify(schema['type'] ?? null)})`);
}

function describeHolder(holder: StepInfo): string {
  return holder.insideForEach === undefined ? `steps[${holder.index}]` : `the step inside forEach ${quote(holder.insideForEach)} (steps[${holder.index}])`;
}

interface TemplateContext {
  steps: readonly CompositeStep[];
  ids: ReadonlyMap<string, StepInfo>;
  /** Indexes of the top-level steps that have surely finished (or been skipped) when this template renders. */
  visible: ReadonlySet<number>;
  /** Inside a forEach inner step: `item` and `index` exist. */
  inForEach: boolean;
  /** The step whose template this is (absent: the output). */
  selfIndex?: number;
  /** `steps` as a whole may be used (the output). */
  allowAllSteps?: boolean;
}

/** The messages for one templated value: parse errors and references it may not make. */
function templateProblems(value: unknown, label: string, context: TemplateContext): string[] {
  const result = templateRefs(value);
  if (!result.ok) return [`${joinLabel(label, result.at)} has a bad template: ${result.reason}`];
  const messages: string[] = [];
  const said = new Set<string>();
  const say = (message: string): void => {
    if (!said.has(message)) messages.push(message);
    said.add(message);
  };
  for (const ref of result.refs) {
    const [root, id] = ref;
    if ((root === 'item' || root === 'index') && !context.inForEach) {
      say(`${label} refers to ${root}, which exists only in the step inside a forEach`);
    } else if (root === 'steps' && id === undefined) {
      if (!context.allowAllSteps) say(`${label} refers to all of steps; name the step it needs (steps.<id>) and list it in dependsOn`);
    } else if (root === 'steps' && id !== undefined) {
      const info = context.ids.get(id);
      const topLevelIndex = context.steps.findIndex((step) => step.id === id);
      if (info === undefined) {
        const ids = context.steps.map((step) => step.id);
        say(`${label} refers to steps.${id}, but there is no step ${quote(id)}${didYouMean(id, ids)}`);
      } else if (topLevelIndex === -1) {
        say(`${label} refers to steps.${id}, the step inside forEach ${quote(info.insideForEach ?? '')}; its results are steps.${info.insideForEach ?? ''}`);
      } else if (topLevelIndex === context.selfIndex) {
        say(`${label} refers to steps.${id}, the step's own output, which does not exist yet`);
      } else if (!context.visible.has(topLevelIndex)) {
        say(`${label} refers to steps.${id}, which may not have run yet (add ${quote(id)} to dependsOn)`);
      }
    }
  }
  return messages;
}

/** `['forEach', 'step', 'arguments']` -> `forEach.step.arguments` (indexes as `[n]`). */
function labelOf(path: CompositePath): string {
  return path.reduce<string>((text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : text === '' ? segment : `${text}.${segment}`), '');
}

function joinLabel(label: string, at: string | undefined): string {
  if (at === undefined || at === '') return label;
  return at.startsWith('[') ? `${label}${at}` : `${label}.${at}`;
}

/** The steps reachable from `start` through dependsOn (its ancestors), not counting itself unless on a cycle. */
function reachable(edges: readonly number[][], start: number): Set<number> {
  const seen = new Set<number>();
  const stack = [...(edges[start] ?? [])];
  while (stack.length > 0) {
    const next = stack.pop() as number;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(edges[next] ?? []));
  }
  return seen;
}

/**
 * The cycles of the graph, one per strongly connected part that has one, each as the step indexes in
 * dependsOn order starting at its lowest index (a -> b means a depends on b).
 */
function findCycles(edges: readonly number[][]): number[][] {
  const cycles: number[][] = [];
  const inCycle = new Set<number>();
  for (let start = 0; start < edges.length; start++) {
    if (inCycle.has(start)) continue;
    // The shortest way back to `start`, by breadth-first search over steps not already in a reported cycle.
    const previous = new Map<number, number>();
    const queue = [start];
    let closing: number | undefined;
    for (let head = 0; head < queue.length && closing === undefined; head++) {
      const node = queue[head] as number;
      for (const next of edges[node] ?? []) {
        if (next === start) {
          closing = node;
          break;
        }
        if (next < start || inCycle.has(next) || previous.has(next)) continue;
        previous.set(next, node);
        queue.push(next);
      }
    }
    if (closing === undefined) continue;
    const path: number[] = [];
    for (let node: number | undefined = closing; node !== undefined && node !== start; node = previous.get(node)) path.unshift(node);
    const cycle = [start, ...path];
    cycle.forEach((node) => inCycle.add(node));
    cycles.push(cycle);
  }
  return cycles;
}

function quote(text: string): string {
  return `'${text}'`;
}

/** ` (did you mean 'approve'?)` when one name is close (at most a third of its letters off, and not all of them), else ''. */
function didYouMean(name: string, candidates: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance && distance < name.length) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best === undefined ? '' : ` (did you mean ${quote(best)}?)`;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
