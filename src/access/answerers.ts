/** @module Which operators may answer which questions (`policy.answerers`): a question shows only to operators who may answer it. */

import { anyGlob } from './glob.js';
import { principalMatches } from './policy.js';
import type { PrincipalMatch } from './policy.js';
import type { Principal } from './principal.js';

/** One rule of `policy.answerers`: the operators it names may answer the questions of the upstreams and tools it names. */
export interface AnswererRule extends PrincipalMatch {
  /** Globs over the upstream's configured name (absent: every upstream). */
  upstreams?: readonly string[];
  /** Globs over the tool name hosts see, of the call that asked (absent: every tool, and questions no call explains). */
  tools?: readonly string[];
}

/** What of a question decides who may answer it. */
export interface QuestionScope {
  upstream: string;
  tool?: string;
}

/** Whether `operator` may answer (and see) a question of `scope`: always without rules; else when some rule names both. */
export function mayAnswer(rules: readonly AnswererRule[], operator: Principal, scope: QuestionScope): boolean {
  if (rules.length === 0) return true;
  return rules.some((rule) => {
    if (!principalMatches(rule, operator)) return false;
    if (rule.upstreams !== undefined && !anyGlob(rule.upstreams, scope.upstream)) return false;
    if (rule.tools !== undefined && (scope.tool === undefined || !anyGlob(rule.tools, scope.tool))) return false;
    return true;
  });
}
