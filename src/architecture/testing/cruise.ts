/** @module Runs dependency-cruiser over a tree with the rules of .dependency-cruiser.mjs and words each violation as one line. */
import { cruise } from 'dependency-cruiser';
import type { ICruiseResult, IForbiddenRuleType, IViolation } from 'dependency-cruiser';
import { OPTIONS } from '../../../.dependency-cruiser.mjs';

/** The repository root (where .dependency-cruiser.mjs and tsconfig.json are). */
export const REPO_ROOT = new URL('../../../', import.meta.url).pathname;

/** Cruises `src` under `baseDir` with `rules`; `tsConfig` only where the tree has one. */
export async function cruiseTree(baseDir: string, rules: IForbiddenRuleType[], useTsConfig = true): Promise<ICruiseResult> {
  const { tsConfig, ...options } = OPTIONS;
  const reported = await cruise(['src'], {
    ...options,
    ...(useTsConfig ? { tsConfig } : {}),
    baseDir,
    validate: true,
    ruleSet: { forbidden: rules },
  });
  if (typeof reported.output === 'string') throw new Error('dependency-cruiser returned text, expected a result object');
  return reported.output;
}

/** A module as people name it: a package by its name (`node_modules/@scope/name/dist/x.js` → `@scope/name`), a file by its path. */
export function moduleName(path: string): string {
  const inPackage = path.split('node_modules/').at(-1);
  if (inPackage === undefined || inPackage === path) return path;
  const segments = inPackage.split('/');
  return (inPackage.startsWith('@') ? segments.slice(0, 2) : segments.slice(0, 1)).join('/');
}

/** One line per violation: `rule: from → to` (a circle lists its whole path). */
export function describeViolation(violation: IViolation): string {
  const path = violation.cycle
    ? [violation.from, ...violation.cycle.map((step) => step.name)].join(' → ')
    : `${violation.from} → ${moduleName(violation.to)}`;
  return `${violation.rule.name}: ${path}`;
}

/** The violations of the rules whose name passes `select`, worded. */
export function violationsOf(result: ICruiseResult, select: (rule: string) => boolean): string[] {
  return result.summary.violations.filter((v) => select(v.rule.name)).map(describeViolation).sort();
}
