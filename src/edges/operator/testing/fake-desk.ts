/** @module An in-memory OperatorDesk for tests of the operator surfaces: records what it was asked and lets a test add and settle questions. */

import type { AnswererRule } from '../../../access/answerers.js';
import { operatorActor } from '../../../access/operator-principal.js';
import type { Principal } from '../../../access/principal.js';
import type { ApprovalState } from '../../../questions/approvals.js';
import { questionFor } from '../../../questions/operator-answer.js';
import { operatorAnswerer } from '../../../questions/operator-answerer.js';
import type { AnswerOutcome, OperatorDesk, QuestionEvent } from '../../../questions/operator-desk.js';
import { OPEN_STATES } from '../../../questions/question.js';
import type { AuditEntry, QuestionAnswer, QuestionFilter, QuestionRecord, QuestionState } from '../../../questions/question.js';

export interface RecordedAnswer {
  id: string;
  answer: QuestionAnswer;
  /** The operator as the audit names them, without `operator:`. */
  operator: string;
}

const SETTLED_BY_ACTION: Record<QuestionAnswer['action'], QuestionState> = { accept: 'answered', decline: 'declined', cancel: 'cancelled' };

export class FakeOperatorDesk implements OperatorDesk {
  readonly #questions = new Map<string, { question: QuestionRecord; audit: AuditEntry[] }>();
  readonly #listeners = new Set<(event: QuestionEvent) => void>();
  /** Every call of answer(), in order, whatever its outcome. */
  readonly answers: RecordedAnswer[] = [];
  /** The operator principal of each call of answer(), in order. */
  readonly principals: Principal[] = [];
  /** `policy.answerers` as the desk applies them (empty: everyone answers everything). */
  answerers: AnswererRule[] = [];
  /** A test's four-eyes state per question (none by default). */
  approvalsOf: ((question: QuestionRecord) => ApprovalState | undefined) | undefined;
  /** A test's stand-in for a four-eyes accept that does not settle yet: the outcome to answer instead of settling. */
  pendingApproval: ((question: QuestionRecord, operator: Principal) => AnswerOutcome | undefined) | undefined;
  /** Every filter list() was called with. */
  readonly filters: (QuestionFilter | undefined)[] = [];
  /** A test's stand-in for the desk's schema check: a problem makes the answer `invalid`. */
  validate: ((question: QuestionRecord, answer: QuestionAnswer) => { reason: string; field?: string } | undefined) | undefined;
  #clock = Date.parse('2025-06-01T12:00:00Z');
  #next = 1;

  get listenerCount(): number {
    return this.#listeners.size;
  }

  #tick(): string {
    this.#clock += 1000;
    return new Date(this.#clock).toISOString();
  }

  #emit(type: QuestionEvent['type'], question: QuestionRecord): void {
    for (const listener of [...this.#listeners]) listener({ type, question });
  }

  /** Adds a question (delivered to operators, unless said otherwise) and tells the subscribers. */
  add(fields: Partial<QuestionRecord> = {}): QuestionRecord {
    const at = this.#tick();
    const question: QuestionRecord = {
      id: `q-${this.#next++}`,
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Restart payments-api?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } },
      origin: { upstream: 'desk', tool: 'restart_service' },
      route: 'operator',
      audience: 'operator',
      state: 'delivered',
      deadline: new Date(this.#clock + 10 * 60_000).toISOString(),
      createdAt: at,
      updatedAt: at,
      ...fields,
    };
    this.#questions.set(question.id, { question, audit: [{ questionId: question.id, at, actor: 'gateway', action: 'created' }] });
    this.#emit('created', question);
    return question;
  }

  /** Settles a question as someone else would (the host, expiry) and tells the subscribers, unless `quietly` (a race the operator loses). */
  settle(id: string, state: QuestionState, answeredBy: QuestionRecord['answeredBy'] = { kind: 'gateway', reason: 'test' }, quietly = false): QuestionRecord {
    const entry = this.#questions.get(id);
    if (entry === undefined) throw new Error(`no question ${id}`);
    const at = this.#tick();
    entry.question = { ...entry.question, state, answeredBy, updatedAt: at, settledAt: at };
    entry.audit.push({ questionId: id, at, actor: 'gateway', action: state });
    if (!quietly) this.#emit('updated', entry.question);
    return entry.question;
  }

  /** Appends an audit line that changes no state (a webhook attempt, for instance). */
  audit(id: string, action: string, detail?: AuditEntry['detail']): void {
    this.#questions.get(id)?.audit.push({ questionId: id, at: this.#tick(), actor: 'gateway', action, ...(detail === undefined ? {} : { detail }) });
  }

  async list(filter?: QuestionFilter): Promise<QuestionRecord[]> {
    this.filters.push(filter);
    const states = filter?.state === undefined ? undefined : ([] as QuestionState[]).concat(filter.state);
    const matching = [...this.#questions.values()]
      .map((entry) => entry.question)
      .filter(
        (q) =>
          (states === undefined || states.includes(q.state)) &&
          (filter?.upstream === undefined || q.origin.upstream === filter.upstream) &&
          (filter?.tool === undefined || q.origin.tool === filter.tool) &&
          (filter?.answeredBy === undefined || q.answeredBy?.kind === filter.answeredBy) &&
          (filter?.method === undefined || q.method === filter.method) &&
          (filter?.before === undefined || Date.parse(q.createdAt) < Date.parse(filter.before)),
      )
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    return matching.slice(0, filter?.limit ?? 100);
  }

  async get(id: string): Promise<{ question: QuestionRecord; audit: AuditEntry[] } | undefined> {
    const entry = this.#questions.get(id);
    return entry === undefined ? undefined : { question: entry.question, audit: [...entry.audit] };
  }

  mayAnswer(operator: Principal, question: QuestionRecord): boolean {
    return questionFor(this.answerers, operator, question);
  }

  async approvals(question: QuestionRecord): Promise<ApprovalState | undefined> {
    return this.approvalsOf?.(question);
  }

  async answer(id: string, answer: QuestionAnswer, principal: Principal): Promise<AnswerOutcome> {
    const operator = operatorActor(principal).slice('operator:'.length);
    this.answers.push({ id, answer, operator });
    this.principals.push(principal);
    const entry = this.#questions.get(id);
    if (entry === undefined || !this.mayAnswer(principal, entry.question)) return { ok: false, kind: 'not-found', reason: `no question ${id}` };
    const pending = answer.action === 'accept' ? this.pendingApproval?.(entry.question, principal) : undefined;
    if (pending !== undefined) return pending;
    if (!OPEN_STATES.includes(entry.question.state)) return { ok: false, kind: 'settled', reason: `already ${entry.question.state}`, question: entry.question };
    const problem = this.validate?.(entry.question, answer);
    const at = this.#tick();
    if (problem !== undefined) {
      entry.audit.push({ questionId: id, at, actor: `operator:${operator}`, action: 'rejected-answer', detail: { reason: problem.reason } });
      return { ok: false, kind: 'invalid', ...problem };
    }
    const state = SETTLED_BY_ACTION[answer.action];
    entry.question = { ...entry.question, state, answer, answeredBy: operatorAnswerer(principal), updatedAt: at, settledAt: at };
    entry.audit.push({ questionId: id, at, actor: `operator:${operator}`, action: state });
    this.#emit('updated', entry.question);
    return { ok: true, question: entry.question };
  }

  subscribe(listener: (event: QuestionEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
