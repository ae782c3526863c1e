/** @module The question desk's domain: a question an upstream asked, where it was routed, and how it was settled. */

import type { JsonObject } from '../protocol/jsonrpc.js';
import type { QuestionAnswer } from '../translation/answers/answer-check.js';

/** What an upstream can ask back. Composite tools' approval steps (a later issue) ask as elicitations. */
export type QuestionMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/**
 * pending: recorded, not yet in front of anyone; delivered: sent to the host and/or shown to operators;
 * answered/declined/cancelled: settled by an answer; expired: its deadline passed (the upstream got `cancel`);
 * abandoned: the call that asked it is gone (the gateway restarted, the upstream or host went away).
 */
export type QuestionState = 'pending' | 'delivered' | 'answered' | 'declined' | 'cancelled' | 'expired' | 'abandoned';

export const OPEN_STATES: readonly QuestionState[] = ['pending', 'delivered'];
export const SETTLED_STATES: readonly QuestionState[] = ['answered', 'declined', 'cancelled', 'expired', 'abandoned'];

/** Who may answer: the host only, the host when it can be asked else an operator, always an operator, or both (first answer wins). */
export type RoutePolicy = 'host' | 'host-then-operator' | 'operator' | 'both';

/** Who takes consent questions the host could answer (`questions.consent`): the host (default), or an operator. */
export type ConsentTo = 'host' | 'operator';

/** Where the question was actually put, after the policy met the host's abilities and the consent rule. */
export type Audience = 'host' | 'operator' | 'both' | 'none';

export interface QuestionOrigin {
  /** The upstream's configured name. */
  upstream: string;
  /** The tool whose call asked it, as the host knows it (namespaced), when a call explains it. */
  tool?: string;
  /** The host session whose call caused it. */
  hostSessionId?: string;
  /** Who the host is, as a person reads it (`describePrincipal`: name, subject, issuer), when the edge verified one. */
  principal?: string;
  /** The host's clientInfo name, as it said at initialize (or in a 2026-07-28 request's envelope). */
  clientName?: string;
  /** The arguments of the call that asked, with secret-looking fields redacted as the store redacts answers. */
  arguments?: JsonObject;
  /** The host's revision, which decides the translated form. */
  hostRevision?: string;
  /** The asker's revision: an operator's answer given on another instance is checked and fitted against it. */
  upstreamRevision?: string;
}

/** Who settled a question. */
export type Answerer =
  | { kind: 'host'; sessionId: string }
  /** `subject` and `issuer` name a verified operator (OpenID Connect); the shared token's operators have only a name. */
  | { kind: 'operator'; name: string; subject?: string; issuer?: string }
  | { kind: 'gateway'; reason: string };

/** An answer in the desk's own terms (accept with content or result, decline, cancel): defined with the one answer check. */
export type { QuestionAnswer };

export interface QuestionRecord {
  /** Stable, unguessable id (also used in URLs). */
  id: string;
  method: QuestionMethod;
  /** The request's params exactly as the upstream asked. */
  params: JsonObject;
  /** The form sent to the host, when it was translated for the host's revision. */
  hostParams?: JsonObject;
  origin: QuestionOrigin;
  route: RoutePolicy;
  audience: Audience;
  /** Why the audience differs from what the policy alone would give (consent rule, host cannot receive it, …). */
  audienceReason?: string;
  state: QuestionState;
  /** ISO time after which the question expires. */
  deadline: string;
  answer?: QuestionAnswer;
  answeredBy?: Answerer;
  createdAt: string;
  updatedAt: string;
  settledAt?: string;
}

/** One line of the audit trail: every state change and every operator action. */
export interface AuditEntry {
  questionId: string;
  /** ISO time. */
  at: string;
  /** `host:<session>`, `operator:<name>` or `gateway`. */
  actor: string;
  /** What happened: created, delivered, answered, declined, cancelled, expired, abandoned, rejected-answer, viewed… */
  action: string;
  detail?: JsonObject;
}

export interface QuestionFilter {
  state?: QuestionState | QuestionState[];
  upstream?: string;
  tool?: string;
  /** `host`, `operator` or `gateway`: the kind of answerer. */
  answeredBy?: Answerer['kind'];
  method?: QuestionMethod;
  /** Newest first; at most this many (default 100, at most 1000). */
  limit?: number;
  /** Only questions created strictly before this ISO time (paging backwards). */
  before?: string;
}

/** A state change the store must apply only if the question is still in one of `from` (compare-and-set). */
export interface Transition {
  from: readonly QuestionState[];
  to: QuestionState;
  answer?: QuestionAnswer;
  answeredBy?: Answerer;
  hostParams?: JsonObject;
  audience?: Audience;
  audienceReason?: string;
  /** The audit line written in the same transaction. */
  audit: Omit<AuditEntry, 'questionId' | 'at'>;
}
