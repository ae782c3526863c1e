/** @module How an operator appears on a settled question and in its audit trail: the answerer record, the actor, the verified identity's detail. */

import type { Principal } from '../access/principal.js';
import { isVerifiedOperator, operatorActor } from '../access/operator-principal.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import type { Answerer } from './question.js';

export type OperatorAnswerer = Extract<Answerer, { kind: 'operator' }>;

/** The record's `answeredBy`: a readable name, and for a verified operator the (issuer, subject) that is the identity. */
export function operatorAnswerer(operator: Principal): OperatorAnswerer {
  if (!isVerifiedOperator(operator)) return { kind: 'operator', name: operator.subject };
  return { kind: 'operator', name: operator.name ?? operator.subject, subject: operator.subject, issuer: operator.issuer };
}

/** The audit actor of an answerer record (the same string `operatorActor` gives for the principal it came from). */
export function answererActor(by: OperatorAnswerer): string {
  if (by.subject === undefined || by.issuer === undefined) return `operator:${by.name}`;
  return operatorActor({ issuer: by.issuer, subject: by.subject, ...(by.name === by.subject ? {} : { name: by.name }) });
}

/** What an audit line says of a verified operator ({issuer, subject}); nothing for the shared token's label. */
export function identityDetail(who: Pick<Principal, 'issuer' | 'subject'>): JsonObject {
  return isVerifiedOperator(who) ? { issuer: who.issuer, subject: who.subject } : {};
}
