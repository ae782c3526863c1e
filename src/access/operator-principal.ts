/** @module An operator as a principal: the shared token's labelled principal, how an operator is named in the audit trail, and who counts as a different approver. */

import { describePrincipal } from './principal.js';
import type { Principal } from './principal.js';

/** The issuer of an operator who presented the shared operator token: the subject is the name they gave, a label and not an identity. */
export const OPERATOR_TOKEN_ISSUER = 'operator-token';

/** The operator behind the shared token, labelled `name` (the `X-Switchboard-Operator` header, or `operator`). */
export function tokenOperator(name: string): Principal {
  return Object.freeze({ issuer: OPERATOR_TOKEN_ISSUER, subject: name, groups: Object.freeze([]), scopes: Object.freeze([]) });
}

/** Whether the operator's identity was verified (OpenID Connect sign-in or bearer token), rather than a label of the shared token. */
export function isVerifiedOperator(operator: Pick<Principal, 'issuer'>): boolean {
  return operator.issuer !== OPERATOR_TOKEN_ISSUER;
}

/** The audit actor: `operator:<name>` for the shared token (as before identities), `operator:<describePrincipal>` for a verified one. */
export function operatorActor(operator: Pick<Principal, 'issuer' | 'subject' | 'name'>): string {
  if (!isVerifiedOperator(operator)) return `operator:${operator.subject}`;
  return `operator:${describePrincipal({ ...operator, groups: [], scopes: [] })}`;
}

/**
 * Who an approval counts as, for four-eyes: the (issuer, subject) of a verified operator. Everyone holding the shared
 * token is one approver whatever name they give, since the name proves nothing.
 */
export function approverKey(operator: Pick<Principal, 'issuer' | 'subject'>): string {
  return isVerifiedOperator(operator) ? JSON.stringify([operator.issuer, operator.subject]) : OPERATOR_TOKEN_ISSUER;
}
