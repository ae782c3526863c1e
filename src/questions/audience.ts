/** @module Decides who is asked: the route policy, met with what the host can receive, the consent rule and whether an operator is there. */

import type { Audience, ConsentTo, RoutePolicy } from './question.js';

export interface AudienceInput {
  policy: RoutePolicy;
  /** Undefined when the host can receive the question in its revision; else why not. */
  hostCannot: string | undefined;
  /** Set when the consent rule claims the question for a person. */
  consent: string | undefined;
  /**
   * Who takes a consent question the host could answer: `host` (the default: the host's own person answers),
   * or `operator` (autonomous hosts with no person behind them), which moves it to an operator under
   * `host-then-operator` and `both`. An explicit `route: host` keeps it with the host either way.
   */
  consentTo?: ConsentTo;
  /** Whether any operator surface (console, REST API, CLI) runs in this gateway. */
  operatorAvailable: boolean;
}

export interface AudienceDecision {
  audience: Audience;
  /** Why, in a sentence an operator reads in the record (absent when the policy alone explains it). */
  reason?: string;
}

const NO_OPERATOR = 'no operator surface runs in this gateway (serve it over HTTP for the console and REST API)';

export function decideAudience({ policy, hostCannot, consent, consentTo = 'host', operatorAvailable }: AudienceInput): AudienceDecision {
  const hostCan = hostCannot === undefined;
  const toOperator = consent !== undefined && consentTo === 'operator' && operatorAvailable;
  switch (policy) {
    case 'host':
      return hostCan ? { audience: 'host' } : { audience: 'none', reason: hostCannot };
    case 'operator':
      return operatorAvailable ? { audience: 'operator' } : { audience: 'none', reason: NO_OPERATOR };
    case 'both':
      if (toOperator) return { audience: 'operator', reason: `consent question: ${consent}` };
      if (hostCan && operatorAvailable) return { audience: 'both' };
      if (hostCan) return { audience: 'host', reason: NO_OPERATOR };
      return operatorAvailable ? { audience: 'operator', reason: hostCannot } : { audience: 'none', reason: `${hostCannot}; ${NO_OPERATOR}` };
    case 'host-then-operator':
      if (toOperator) return { audience: 'operator', reason: `consent question: ${consent}` };
      if (hostCan) return { audience: 'host' };
      return operatorAvailable ? { audience: 'operator', reason: hostCannot } : { audience: 'none', reason: `${hostCannot}; ${NO_OPERATOR}` };
    default:
      return assertNever(policy);
  }
}

function assertNever(value: never): never {
  throw new Error(`unknown route policy: ${String(value)}`);
}
