/** @module The access policy applied where hosts reach upstreams: lists filtered to what the principal may use, a refused call stopped (GW_ERR_FORBIDDEN) and audited before anything reaches an upstream. */

import type { AccessTarget, PolicySettings, TargetKind } from '../access/policy.js';
import { decideAccess, policyRestricts } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { describePrincipal } from '../access/principal.js';
import type { Logger } from '../core/log.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { ListKind } from '../upstream/list-all.js';

/** Who was refused what, for the audit (the log) and the metrics. */
export interface AccessRefusal {
  principal: Principal;
  target: AccessTarget;
  reason: string;
  hostSessionId: string;
}

/** Which field names a list item to the policy, by kind of list. */
const NAMED_BY: Readonly<Record<ListKind, { kind: TargetKind; field: string }>> = {
  tools: { kind: 'tool', field: 'name' },
  prompts: { kind: 'prompt', field: 'name' },
  resources: { kind: 'resource', field: 'uri' },
  resourceTemplates: { kind: 'resource', field: 'uriTemplate' },
};

export class AccessGate {
  readonly #policy: PolicySettings;
  readonly #logger: Logger;
  readonly #onRefused: ((refusal: AccessRefusal) => void) | undefined;
  /** False when no rule can refuse anything: every check is skipped. */
  readonly restricts: boolean;

  constructor(policy: PolicySettings, options: { logger: Logger; onRefused?: (refusal: AccessRefusal) => void }) {
    this.#policy = policy;
    this.#logger = options.logger;
    this.#onRefused = options.onRefused;
    this.restricts = policyRestricts(policy);
  }

  /** The items of a list the principal may use; the others are not shown (a template is covered by its URI template). */
  filter(principal: Principal, kind: ListKind, items: JsonObject[]): JsonObject[] {
    if (!this.restricts) return items;
    const { kind: targetKind, field } = NAMED_BY[kind];
    return items.filter((item) => typeof item[field] === 'string' && decideAccess(this.#policy, principal, { kind: targetKind, name: item[field] }).allowed);
  }

  /** check() for what a host request names (tools/call, prompts/get, resources/read and subscribe, completion/complete); other methods pass. */
  checkRequest(principal: Principal, method: string, params: JsonObject, hostSessionId: string): void {
    if (!this.restricts) return;
    const target = accessTargetOf(method, params);
    if (target) this.check(principal, target, hostSessionId);
  }

  /** Throws GW_ERR_FORBIDDEN (-32603) when the principal may not use `target`; the refusal is audited first. */
  check(principal: Principal, target: AccessTarget, hostSessionId: string): void {
    if (!this.restricts) return;
    const decision = decideAccess(this.#policy, principal, target);
    if (decision.allowed) return;
    this.#logger.log('warn', 'access refused by policy', {
      audit: 'access-refused',
      principal: describePrincipal(principal),
      issuer: principal.issuer,
      subject: principal.subject,
      target: `${target.kind} ${target.name}`,
      reason: decision.reason,
      session: hostSessionId,
    });
    this.#onRefused?.({ principal, target, reason: decision.reason, hostSessionId });
    throw new GatewayError('GW_ERR_FORBIDDEN', `Forbidden: ${describePrincipal(principal)} may not use ${target.kind} ${target.name}`);
  }
}

/** What a host request names for the access policy: a tool or prompt by name, a resource by URI (completion: its ref). */
export function accessTargetOf(method: string, params: JsonObject): AccessTarget | undefined {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const named = (kind: AccessTarget['kind'], name: string | undefined) => (name === undefined ? undefined : { kind, name });
  switch (method) {
    case 'tools/call':
      return named('tool', text(params.name));
    case 'prompts/get':
      return named('prompt', text(params.name));
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return named('resource', text(params.uri));
    case 'completion/complete': {
      const ref = isObject(params.ref) ? params.ref : {};
      return ref.type === 'ref/prompt' ? named('prompt', text(ref.name)) : named('resource', text(ref.uri));
    }
    default:
      return undefined;
  }
}
