/** @module The access policy between hosts and upstreams (`policy.rules`): which principal may see and use which tool, resource and prompt. Deny wins. */

import { anyGlob } from './glob.js';
import type { Principal } from './principal.js';

export type TargetKind = 'tool' | 'resource' | 'prompt';

/** What a host asks to use: a tool or prompt by the name hosts see, a resource by its URI. */
export interface AccessTarget {
  kind: TargetKind;
  name: string;
}

/** Who a rule is about; every matcher it names must match (none named: everyone). */
export interface PrincipalMatch {
  /** Globs over the principal's subject. */
  subjects?: readonly string[];
  /** The principal holds at least one of these groups. */
  groups?: readonly string[];
  /** The principal's credential holds every one of these scopes. */
  scopes?: readonly string[];
}

/** One rule of `policy.rules`. With no target list it applies to every tool, resource and prompt; with some, only to the kinds it lists. */
export interface PolicyRule extends PrincipalMatch {
  effect: 'allow' | 'deny';
  tools?: readonly string[];
  resources?: readonly string[];
  prompts?: readonly string[];
}

export interface PolicySettings {
  /** What a target no rule allows gets: `allow` (the default, as without a policy) or `deny`. */
  default: 'allow' | 'deny';
  rules: readonly PolicyRule[];
}

export type AccessDecision = { allowed: true } | { allowed: false; reason: string };

/** Everything allowed: the policy of a config without `policy`. */
export const OPEN_POLICY: PolicySettings = Object.freeze({ default: 'allow', rules: Object.freeze([]) });

/** Whether `principal` is one the matcher names. */
export function principalMatches(match: PrincipalMatch, principal: Principal): boolean {
  if (match.subjects !== undefined && !anyGlob(match.subjects, principal.subject)) return false;
  if (match.groups !== undefined && !match.groups.some((group) => principal.groups.includes(group))) return false;
  if (match.scopes !== undefined && !match.scopes.every((scope) => principal.scopes.includes(scope))) return false;
  return true;
}

function targetList(rule: PolicyRule, kind: TargetKind): readonly string[] | undefined {
  return kind === 'tool' ? rule.tools : kind === 'resource' ? rule.resources : rule.prompts;
}

/** Whether the rule covers `target`: no target list at all covers everything; otherwise the list of its kind must match. */
function ruleCovers(rule: PolicyRule, target: AccessTarget): boolean {
  if (rule.tools === undefined && rule.resources === undefined && rule.prompts === undefined) return true;
  const list = targetList(rule, target.kind);
  return list !== undefined && anyGlob(list, target.name);
}

/** Decides one target for one principal: a covering deny rule refuses; else a covering allow rule, or the default, decides. */
export function decideAccess(policy: PolicySettings, principal: Principal, target: AccessTarget): AccessDecision {
  let allowedBy: number | undefined;
  for (const [index, rule] of policy.rules.entries()) {
    if (!ruleCovers(rule, target) || !principalMatches(rule, principal)) continue;
    if (rule.effect === 'deny') return { allowed: false, reason: `policy.rules[${index}] denies ${target.kind} ${target.name}` };
    allowedBy ??= index;
  }
  if (allowedBy !== undefined || policy.default === 'allow') return { allowed: true };
  return { allowed: false, reason: `no policy rule allows ${target.kind} ${target.name} (policy.default is deny)` };
}

/** Whether the policy can refuse anything at all: a router skips filtering when it cannot. */
export function policyRestricts(policy: PolicySettings): boolean {
  return policy.default === 'deny' || policy.rules.some((rule) => rule.effect === 'deny');
}
