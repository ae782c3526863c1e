/**
 * @module The question broker: records every question an upstream asks back, decides who is asked (host,
 * operator, both, nobody), settles it with the first valid answer, expires it, and tells whoever waits.
 * Every state change is written to the store before anyone acts on it.
 */

import type { Logger } from '../gateway/logger.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { answerAtRest } from './answer-at-rest.js';
import { decideAudience } from './audience.js';
import { consentReason } from './consent-rule.js';
import type { AnswerOutcome, OperatorDesk, QuestionEvent } from './operator-desk.js';
import type { Answerer, AuditEntry, ConsentTo, QuestionAnswer, QuestionFilter, QuestionMethod, QuestionOrigin, QuestionRecord, QuestionState, RoutePolicy } from './question.js';
import { OPEN_STATES } from './question.js';
import type { QuestionStore } from './question-store.js';

export type AnswerCheck = { ok: true; answer: QuestionAnswer } | { ok: false; reason: string; field?: string };

/** A question as the router hands it over. */
export interface QuestionRequest {
  method: QuestionMethod;
  /** As the upstream asked. */
  params: JsonObject;
  origin: QuestionOrigin;
  route: RoutePolicy;
  /** Who takes a consent question the host could answer (`questions.consent`); default the host. */
  consentTo?: ConsentTo;
  timeoutMs: number;
  /** Undefined when the host can receive it (then `hostParams` is the translated form); else why not. */
  hostCannot?: string;
  hostParams?: JsonObject;
  /** Checks an operator's answer against what the upstream asked (limits, schema, result shape). */
  checkOperatorAnswer(answer: QuestionAnswer): AnswerCheck;
  /** Called once, after the settling state change is durable: the router answers the upstream (and withdraws the host's request if it was asked). */
  onSettled(question: QuestionRecord): void;
}

export interface BrokerOptions {
  store: QuestionStore;
  logger: Logger;
  /** Whether an operator surface runs (console, REST API): without one, nobody but the host can answer. */
  operatorAvailable: boolean;
  now?: () => Date;
  newId?: () => string;
  /**
   * This instance's name in a store several gateways share: at start it abandons only the questions it left
   * open itself. The store must stamp the same name on the questions it creates.
   */
  owner?: string;
}

interface Live {
  request: QuestionRequest;
  timer: NodeJS.Timeout | undefined;
}

const STATE_OF_ACTION: Record<QuestionAnswer['action'], QuestionState> = { accept: 'answered', decline: 'declined', cancel: 'cancelled' };

export class QuestionBroker implements OperatorDesk {
  readonly operatorAvailable: boolean;
  #store: QuestionStore;
  #logger: Logger;
  #now: () => Date;
  #newId: () => string;
  #live = new Map<string, Live>();
  #listeners = new Set<(event: QuestionEvent) => void>();
  #closed = false;
  #owner: string | undefined;

  constructor(options: BrokerOptions) {
    this.#owner = options.owner;
    this.#store = options.store;
    this.#logger = options.logger;
    this.operatorAvailable = options.operatorAvailable;
    this.#now = options.now ?? (() => new Date());
    this.#newId = options.newId ?? (() => `q-${globalThis.crypto.randomUUID()}`);
  }

  /** At start: questions left open by a previous process can no longer be answered to anyone. */
  async start(): Promise<void> {
    const count = await this.#store.abandonOpen('the gateway restarted: the call that asked is gone', this.#owner);
    if (count > 0) this.#logger.log('warn', `marked ${count} question(s) left open by a previous run abandoned`);
  }

  /**
   * Records a question and decides its audience. Resolves the durable record: the caller then puts it in
   * front of the host (audience host or both) and calls `delivered`. A question nobody can be asked is
   * settled at once as `cancelled` (by the gateway), and `onSettled` fires.
   */
  async open(request: QuestionRequest): Promise<QuestionRecord> {
    const at = this.#now();
    const decision = decideAudience({
      policy: request.route,
      hostCannot: request.hostCannot,
      consent: consentReason(request.method, request.params),
      ...(request.consentTo ? { consentTo: request.consentTo } : {}),
      operatorAvailable: this.operatorAvailable,
    });
    const record: QuestionRecord = {
      id: this.#newId(),
      method: request.method,
      params: request.params,
      ...(request.hostParams && (decision.audience === 'host' || decision.audience === 'both') ? { hostParams: request.hostParams } : {}),
      origin: request.origin,
      route: request.route,
      audience: decision.audience,
      ...(decision.reason ? { audienceReason: decision.reason } : {}),
      state: 'pending',
      deadline: new Date(at.getTime() + request.timeoutMs).toISOString(),
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
    };
    await this.#store.create(record, { actor: 'gateway', action: 'created', detail: { audience: decision.audience, ...(decision.reason ? { reason: decision.reason } : {}) } });
    this.#emit({ type: 'created', question: record });
    if (decision.audience === 'none') {
      await this.#settle(record.id, request, { action: 'cancel' }, { kind: 'gateway', reason: decision.reason ?? 'nobody can answer' }, 'cancelled');
      return (await this.#store.get(record.id)) ?? record;
    }
    const timer = setTimeout(() => void this.#expire(record.id), Math.max(0, request.timeoutMs));
    timer.unref?.();
    this.#live.set(record.id, { request, timer });
    if (decision.audience !== 'host') {
      // Operators see it from now on; a host-only question is marked delivered by the router once sent.
      const shown = await this.#store.transition(record.id, { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered', detail: { to: decision.audience } } });
      if (shown) {
        this.#emit({ type: 'updated', question: shown });
        return shown;
      }
    }
    return record;
  }

  /** The router sent the question to the host: as a request on its stream, or inside an `input_required` result (2026-07-28). */
  async delivered(id: string, hostRequestId: string, via: 'request' | 'input_required' = 'request'): Promise<void> {
    const detail = { to: 'host', hostRequestId, via };
    const updated = await this.#store.transition(id, { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered', detail } });
    if (updated) this.#emit({ type: 'updated', question: updated });
  }

  /** A host answered (already checked against the schema it was sent). False when the question was settled first. */
  async answerFromHost(id: string, answer: QuestionAnswer, sessionId: string): Promise<boolean> {
    const live = this.#live.get(id);
    if (!live) return false;
    return this.#settle(id, live.request, answer, { kind: 'host', sessionId }, STATE_OF_ACTION[answer.action]);
  }

  /**
   * A host's answer broke the limits or the schema it was asked with: the question settles `cancelled`
   * (answered by the host, the refusal on the audit trail first), and the router tells the upstream
   * -32602. False when the question was settled first.
   */
  async refuseHostAnswer(id: string, refusal: { reason: string; field?: string }, sessionId: string): Promise<boolean> {
    const live = this.#live.get(id);
    if (!live) return false;
    const detail: JsonObject = { why: refusal.reason, ...(refusal.field === undefined ? {} : { field: refusal.field }) };
    await this.#store.audit({ questionId: id, actor: `host:${sessionId}`, action: 'rejected-answer', detail });
    return this.#settle(id, live.request, { action: 'cancel' }, { kind: 'host', sessionId }, 'cancelled');
  }

  /** The question is void: the upstream withdrew it, the call or a session went away. */
  async withdraw(id: string, reason: string): Promise<void> {
    const live = this.#live.get(id);
    if (!live) return;
    await this.#settle(id, live.request, { action: 'cancel' }, { kind: 'gateway', reason }, 'abandoned');
  }

  // ---- OperatorDesk -------------------------------------------------------------------------------

  list(filter?: QuestionFilter): Promise<QuestionRecord[]> {
    return this.#store.list(filter);
  }

  async get(id: string): Promise<{ question: QuestionRecord; audit: AuditEntry[] } | undefined> {
    const question = await this.#store.get(id);
    if (!question) return undefined;
    return { question, audit: await this.#store.auditTrail(id) };
  }

  async answer(id: string, answer: QuestionAnswer, operator: string): Promise<AnswerOutcome> {
    const actor = `operator:${operator}`;
    const question = await this.#store.get(id);
    if (!question) return { ok: false, kind: 'not-found', reason: `No question ${id}` };
    const live = this.#live.get(id);
    if (!OPEN_STATES.includes(question.state) || !live) {
      const why = OPEN_STATES.includes(question.state)
        ? `Question ${id} is ${question.state} but no call of this gateway waits for it (another instance holds it, or it is being abandoned)`
        : `Question ${id} is already ${question.state}`;
      await this.#store.audit({ questionId: id, actor, action: 'rejected-answer', detail: { why: live ? 'settled' : 'not held here', state: question.state } });
      return { ok: false, kind: 'settled', reason: why, question };
    }
    if (question.audience === 'host') {
      await this.#store.audit({ questionId: id, actor, action: 'rejected-answer', detail: { why: 'routed to the host only' } });
      return { ok: false, kind: 'invalid', reason: `Question ${id} is routed to its host only (route: ${question.route})` };
    }
    const check = answer.action === 'accept' ? live.request.checkOperatorAnswer(answer) : ({ ok: true, answer } as AnswerCheck);
    if (!check.ok) {
      await this.#store.audit({ questionId: id, actor, action: 'rejected-answer', detail: { why: check.reason, ...(check.field ? { field: check.field } : {}) } });
      return { ok: false, kind: 'invalid', reason: check.reason, ...(check.field ? { field: check.field } : {}) };
    }
    const settled = await this.#settle(id, live.request, check.answer, { kind: 'operator', name: operator }, STATE_OF_ACTION[check.answer.action]);
    const after = await this.#store.get(id);
    if (!settled || !after) {
      return after ? { ok: false, kind: 'settled', reason: `Question ${id} is already ${after.state}`, question: after } : { ok: false, kind: 'not-found', reason: `No question ${id}` };
    }
    return { ok: true, question: after };
  }

  subscribe(listener: (event: QuestionEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops the timers; questions still open are abandoned (their calls end with the process). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#live.keys()].map((id) => this.withdraw(id, 'the gateway is shutting down')));
    this.#listeners.clear();
  }

  // ---- internals ----------------------------------------------------------------------------------

  async #expire(id: string): Promise<void> {
    const live = this.#live.get(id);
    if (!live) return;
    await this.#settle(id, live.request, { action: 'cancel' }, { kind: 'gateway', reason: 'the question expired' }, 'expired');
  }

  /**
   * The one way a question settles: compare-and-set in the store first, then the waiting router is told. The store
   * (and so every reader and event) keeps secret fields "[redacted]"; only the router gets the answer as given.
   */
  async #settle(id: string, request: QuestionRequest, answer: QuestionAnswer, by: Answerer, to: QuestionState): Promise<boolean> {
    const actor = by.kind === 'host' ? `host:${by.sessionId}` : by.kind === 'operator' ? `operator:${by.name}` : 'gateway';
    let updated: QuestionRecord | undefined;
    try {
      updated = await this.#store.transition(id, {
        from: OPEN_STATES,
        to,
        answer: answerAtRest(request.method, request.params, answer),
        answeredBy: by,
        audit: { actor, action: to, ...(by.kind === 'gateway' ? { detail: { reason: by.reason } } : {}) },
      });
    } catch (error) {
      this.#logger.log('error', `could not record the settlement of question ${id}`, { error: error instanceof Error ? error.message : String(error) });
      return false;
    }
    if (!updated) return false;
    const live = this.#live.get(id);
    if (live?.timer) clearTimeout(live.timer);
    this.#live.delete(id);
    this.#emit({ type: 'updated', question: updated });
    try {
      request.onSettled({ ...updated, answer });
    } catch (error) {
      this.#logger.log('error', `acting on the settlement of question ${id} failed`, { error: error instanceof Error ? error.message : String(error) });
    }
    return true;
  }

  #emit(event: QuestionEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.log('warn', 'a question listener failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
}
