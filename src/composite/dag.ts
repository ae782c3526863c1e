/** @module The step graph of a composite: unique ids, known dependencies, no cycle, and the step cap. */

import type { CompositeStep } from './definition.js';

/** What is wrong with the step graph, naming the step; undefined when the steps form a DAG. */
export function stepGraphProblem(steps: readonly CompositeStep[]): { step?: string; reason: string } | undefined {
  const ids = new Set<string>();
  for (const step of steps) {
    if (ids.has(step.id)) return { step: step.id, reason: `the step id "${step.id}" is used twice` };
    ids.add(step.id);
  }
  for (const step of steps) {
    for (const dep of step.dependsOn) {
      if (dep === step.id) return { step: step.id, reason: `step "${step.id}" depends on itself` };
      if (!ids.has(dep)) return { step: step.id, reason: `step "${step.id}" depends on "${dep}", which is not a step of this composite` };
    }
  }
  const cycle = findCycle(steps);
  if (cycle) return { step: cycle[0], reason: `the steps depend on each other in a cycle: ${cycle.join(' → ')}` };
  return undefined;
}

/** One cycle (its ids, the first repeated at the end), or undefined. Iterative depth-first search. */
function findCycle(steps: readonly CompositeStep[]): string[] | undefined {
  const deps = new Map(steps.map((step) => [step.id, step.dependsOn] as const));
  const state = new Map<string, 'open' | 'done'>();
  for (const start of steps) {
    if (state.has(start.id)) continue;
    const path: string[] = [];
    const stack: { id: string; next: number }[] = [{ id: start.id, next: 0 }];
    state.set(start.id, 'open');
    path.push(start.id);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { id: string; next: number };
      const list = deps.get(top.id) ?? [];
      if (top.next >= list.length) {
        state.set(top.id, 'done');
        stack.pop();
        path.pop();
        continue;
      }
      const dep = list[top.next++] as string;
      const seen = state.get(dep);
      if (seen === 'open') return [...path.slice(path.indexOf(dep)), dep];
      if (seen === 'done') continue;
      state.set(dep, 'open');
      path.push(dep);
      stack.push({ id: dep, next: 0 });
    }
  }
  return undefined;
}
