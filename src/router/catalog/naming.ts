/** @module Naming strategies: how tool and prompt names of several upstreams become one namespace. */

import type { NamingStrategy } from '../../config/types.js';

export interface NamingInput {
  upstream: string;
  /** The name after the upstream's own renames. */
  names: string[];
}

export interface NamingOutcome {
  /** exposed name -> { upstream, name before prefixing } */
  exposed: Map<string, { upstream: string; name: string }>;
  /** Names that could not be exposed, with why (logged by the caller). */
  hidden: { upstream: string; name: string; reason: string }[];
}

/**
 * Applies a strategy to upstreams given in config order:
 * - prefix-on-conflict: names stay unless two upstreams share one; then each holder gets `upstream<sep>name`.
 * - prefix: every name becomes `upstream<sep>name`.
 * - priority / manual: names stay; on a clash the upstream listed first wins.
 * Whatever the strategy, an exposed name is never given twice: a later clash is hidden.
 */
export function applyNaming(inputs: NamingInput[], strategy: NamingStrategy, separator: string): NamingOutcome {
  const holders = new Map<string, number>();
  for (const input of inputs) {
    for (const name of new Set(input.names)) holders.set(name, (holders.get(name) ?? 0) + 1);
  }
  const exposed = new Map<string, { upstream: string; name: string }>();
  const hidden: NamingOutcome['hidden'] = [];
  for (const input of inputs) {
    for (const name of input.names) {
      const prefixed = strategy === 'prefix' || (strategy === 'prefix-on-conflict' && (holders.get(name) ?? 0) > 1);
      const exposedName = prefixed ? `${input.upstream}${separator}${name}` : name;
      const owner = exposed.get(exposedName);
      if (owner) {
        hidden.push({ upstream: input.upstream, name, reason: `name '${exposedName}' is already taken by upstream '${owner.upstream}'` });
        continue;
      }
      exposed.set(exposedName, { upstream: input.upstream, name });
    }
  }
  return { exposed, hidden };
}
