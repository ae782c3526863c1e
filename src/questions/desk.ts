/**
 * @module The question desk: the one owner of every open question. It records a question and decides who is
 * asked (host, operator, both, nobody), holds what its end needs (the asker, the calls paused for it, the host's
 * key, the timer, the record), and ends it one way, `settle(id, outcome)`: the store's compare-and-set first,
 * then, for the winner only, the effects the outcome's row of SETTLE_EFFECTS names.
 */

import { systemClock } from '../core/clock.js';
import { answerAtRest } from './answer-at-rest.js';
import { decideAudience } from './audience.js';
import { consentReason } from './consent-rule.js';
import type { AnswerOutcome, OperatorDesk, QuestionEvent } from './operator-desk.js';
import type { AuditEntry, QuestionFilter, QuestionRecord } from './question.js';
import { OPEN_STATES } from './question.js';
import { QuestionListeners } from './question-listeners.js';
import type { AuditLine, QuestionStore } from './question-store.js';
import { openQuestionSpan, questionDelivered, questionSettled, withinQuestion } from './question-span.js';
import type { Logger } from '../core/log.js';
import { ProtocolError, RpcCode } from '../protocol/errors.js';
import type { QuestionAnswer } from '../translation/answers/answer-check.js';
import type { HeldQuestion, HostKeyCount } from './held-question.js';
import { HostSeat } from './held-question.js';
import type { OpenRequest, RelayRequest } from './open-request.js';
import { heldFrom } from './open-request.js';
import type { DeskHost } from './question-route.js';
import type { Outcome, Settlement } from './settle-table.js';
import { effectsOf } from './settle-table.js';
import { act } from './settle-acts.js';
import { ChangeWatch } from './change-watch.js';
import type { AnswererRule } from '../access/answerers.js';
import type { Principal } from '../access/principal.js';
import type { ApprovalState } from './approvals.js';
import { approvalsNeeded, approversIn } from './approvals.js';
import { answererActor } from './operator-answerer.js';
import { answerAsOperator, questionFor } from './operator-answer.js';

export interface DeskOptions {
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
  /** `policy.answerers`: which operators may see and answer which questions (empty: all of them, all). */
  answerers?: readonly AnswererRule[];
  /** `questions.tools.<tool>.approvers`, by the tool name hosts see: four-eyes questions, routed to operators only. */
  approvers?: Readonly<Record<string, number>>;
  /**
   * With a store that tells of changes (one several gateways share): how often the desk re-reads the questions it
   * holds, so a change notification lost on the way delays an answer by at most this long (default 3 s).
   */
  recheckMs?: number;
}

/** A question the desk opened: its record, and the key the host must be sent it under when it is put to the host now. */
export interface Opened {
  record: QuestionRecord;
  hostKey: string | undefined;
}

export class QuestionDesk implements OperatorDesk {
  readonly operatorAvailable: boolean;
  #store: QuestionStore;
  #logger: Logger;
  #now: () => Date;
  #newId: () => string;
  #owner: string | undefined;
  #answerers: readonly AnswererRule[] = [];
  #approvers: Readonly<Record<string, number>> = {};
  /** Every open question, by id. */
  #held = new Map<string, HeldQuestion>();
  #listeners: QuestionListeners;
  #relayed = 0;
  /** Host keys issued (`sb-N`): this desk's own count, unique across its host sessions. */
  #hostKeys: HostKeyCount = { issued: 0 };
  #closed = false;
  /** With a store several gateways share: what the others write (see change-watch.ts). */
  #watch: ChangeWatch | undefined;

  /** A reload's `policy.answerers` and approvers: they hold for what operators see and answer from now on. */
  reconfigure(options: Pick<DeskOptions, 'answerers' | 'approvers'>): void {
    this.#answerers = options.answerers ?? [];
    this.#approvers = options.approvers ?? {};
  }

  constructor(options: DeskOptions) {
    this.#owner = options.owner;
    this.reconfigure(options);
    this.#store = options.store;
    this.#logger = options.logger;
    this.#listeners = new QuestionListeners(options.logger);
    this.operatorAvailable = options.operatorAvailable;
    this.#now = options.now ?? systemClock.date;
    this.#newId = options.newId ?? (() => `q-${globalThis.crypto.randomUUID()}`);
    const { store } = options;
    if (store.changes) {
      this.#watch = new ChangeWatch({
        store: store as QuestionStore & Required<Pick<QuestionStore, 'changes'>>,
        logger: options.logger,
        recheckMs: options.recheckMs ?? 3000,
        changed: (id, record) => this.#changedElsewhere(id, record),
        held: () => [...this.#held.values()].filter((held) => held.recorded).map((held) => held.id),
      });
    }
  }

  /**
   * Another writer changed question `id` (a shared store told so, or a re-read found it): if this desk holds it and it
   * is settled, the call waiting here gets what the record says, and nothing is written; operators watching this
   * desk see every instance's changes.
   */
  async #changedElsewhere(id: string, record: QuestionRecord | undefined): Promise<void> {
    if (!record) return;
    if (!this.#held.has(id)) {
      this.#emit({ type: 'updated', question: record, elsewhere: true });
      return;
    }
    if (!OPEN_STATES.includes(record.state)) await this.settle(id, { kind: 'settled-elsewhere', record });
  }

  /** At start: questions left open by a previous process can no longer be answered to anyone. */
  async start(): Promise<void> {
    const count = await this.#store.abandonOpen('the gateway restarted: the call that asked is gone', this.#owner);
    if (count > 0) this.#logger.log('warn', `marked ${count} question(s) left open by a previous run abandoned`);
  }

  /** The place of one host session at the desk: its keys, and the questions that came through it. */
  seat(host: DeskHost): HostSeat {
    return new HostSeat(host, this.#hostKeys);
  }

  /**
   * Records a question, decides its audience and holds it; the asker's paused calls stop their clocks at once.
   * Put to the host now (`delivery`, audience host or both, the host open): created `delivered` in one write
   * and given the key the host must be sent it under. Shown to operators: created `delivered` too. Nobody to
   * ask: settled at once (`nobody`). Resolves undefined when the store refused it (the asker got -32603).
   */
  async open(request: OpenRequest): Promise<Opened | undefined> {
    for (const id of request.paused ?? []) request.asker?.pause(id);
    try {
      return await this.#open(request);
    } catch (error) {
      this.#logger.log('error', `could not record ${request.method} from upstream '${request.origin.upstream}'`, { session: request.origin.hostSessionId, error: String(error) });
      for (const id of request.paused ?? []) request.asker?.resume(id);
      if (request.asker && request.upstreamId !== undefined) request.asker.respondError(request.upstreamId, recordFailed());
      return undefined;
    }
  }

  async #open(request: OpenRequest): Promise<Opened> {
    const at = this.#now();
    // Four-eyes questions are for operators only: no host could settle one with a single answer.
    const needed = approvalsNeeded(this.#approvers, request.origin.tool);
    const route = needed > 1 ? 'operator' : request.route;
    const decided = decideAudience({
      policy: route,
      hostCannot: request.hostCannot,
      consent: consentReason(request.method, request.params),
      ...(request.consentTo ? { consentTo: request.consentTo } : {}),
      operatorAvailable: this.operatorAvailable,
    });
    const fourEyes = `four-eyes: ${needed} different operators must accept (questions.tools.${request.origin.tool ?? ''}.approvers)`;
    const decision = needed > 1 && request.route !== 'operator' ? { ...decided, reason: decided.reason ?? fourEyes } : decided;
    const toHost = decision.audience === 'host' || decision.audience === 'both';
    const pending: QuestionRecord = {
      id: this.#newId(),
      method: request.method,
      params: request.params,
      ...(request.hostParams && toHost ? { hostParams: request.hostParams } : {}),
      origin: request.origin,
      route,
      audience: decision.audience,
      ...(decision.reason ? { audienceReason: decision.reason } : {}),
      state: 'pending',
      deadline: new Date(at.getTime() + request.timeoutMs).toISOString(),
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
    };
    const created: AuditLine = { actor: 'gateway', action: 'created', detail: { audience: decision.audience, ...(decision.reason ? { reason: decision.reason } : {}) } };
    const hostKey = toHost && request.hostParams !== undefined ? this.#hostKeyFor(request) : undefined;
    // Shown to operators, or put to the host only: the `delivered` line goes in the same write as `created`.
    const delivered = decision.audience === 'operator' || decision.audience === 'both'
      ? { to: decision.audience }
      : hostKey === undefined || request.delivery === undefined ? undefined : { to: 'host', hostRequestId: hostKey, via: request.delivery.via };
    const record: QuestionRecord = delivered ? { ...pending, state: 'delivered', updatedAt: pending.createdAt } : pending;
    this.#watch?.ownWrite(record.id);
    let onDisk: Promise<void> | undefined;
    const span = openQuestionSpan(request, record);
    try {
      await withinQuestion(span, async () => {
        if (delivered?.to === 'host' && this.#store.createCommitted) {
          // Put to its host only, now: the host need not wait for the disk, only for the commit (see #record).
          ({ onDisk } = await this.#store.createCommitted(record, created, { actor: 'gateway', action: 'delivered', detail: delivered }));
        } else if (delivered) await this.#store.create(record, created, { actor: 'gateway', action: 'delivered', detail: delivered });
        else await this.#store.create(record, created);
      });
    } catch (error) {
      this.#watch?.notWritten(record.id);
      span?.fail(`not recorded: ${String(error)}`, 'store');
      span?.end();
      throw error;
    }
    const held = { ...heldFrom(request, record, hostKey), span };
    questionDelivered(span, delivered, request.origin.hostSessionId);
    held.onDisk = onDisk;
    this.#hold(held);
    if (request.upstreamId !== undefined) request.asker?.recorded?.(request.upstreamId, record.id);
    // Operators see what they always saw: the question created, then shown (no event is made while nobody listens),
    // once it is on disk.
    const shown = (): void => {
      if (!this.#listeners.any) return;
      this.#emit({ type: 'created', question: pending });
      if (delivered) this.#emit({ type: 'updated', question: record });
    };
    if (onDisk) onDisk.then(shown, (error: unknown) => this.#logger.log('error', `question ${record.id} could not be synced to disk: ${error instanceof Error ? error.message : String(error)}`, { session: request.origin.hostSessionId }));
    else shown();
    if (decision.audience === 'none') {
      await this.settle(record.id, { kind: 'nobody', reason: decision.reason ?? 'nobody can answer' });
      return { record: (await this.#store.get(record.id)) ?? record, hostKey: undefined };
    }
    held.timer = setTimeout(() => void this.settle(record.id, { kind: 'expired' }), Math.max(0, request.timeoutMs));
    held.timer.unref?.();
    if (decision.audience === 'operator') {
      this.#logger.log('info', `question ${record.id} (${request.method} from upstream '${request.origin.upstream}') waits for an operator`, { session: request.origin.hostSessionId, reason: decision.reason });
    }
    return { record, hostKey };
  }

  /** The key a question put to the host now goes under: the input request's own (2026-07-28), else a fresh one of its open session. */
  #hostKeyFor(request: OpenRequest): string | undefined {
    if (request.delivery === undefined) return undefined;
    if (request.delivery.key !== undefined) return request.delivery.key;
    return request.seat && !request.seat.host.closed ? request.seat.nextKey() : undefined;
  }

  /** Holds a request relayed to the host without a record (a ping): it ends like a question, by `settle`. Returns its host key. */
  relay(request: RelayRequest): string {
    const hostKey = request.seat.nextKey();
    this.#relayed += 1;
    for (const id of request.paused) request.asker.pause(id);
    this.#hold({ ...heldFrom({ ...request, origin: { upstream: request.asker.spec.name, hostSessionId: request.seat.host.id } }, undefined, hostKey), id: `relay-${this.#relayed}` });
    return hostKey;
  }

  #hold(held: HeldQuestion): void {
    this.#held.set(held.id, held);
    held.seat?.open.set(held.id, held);
    if (held.seat && held.hostKey !== undefined) held.seat.keys.set(held.hostKey, held.id);
  }

  /** The open question `id` (undefined once it is settled, or being settled). */
  held(id: string): HeldQuestion | undefined {
    return this.#held.get(id);
  }

  /**
   * The one way a question ends. It is claimed here (no second outcome reaches it), its state changed in the store
   * by compare-and-set, and only if that write won are the effects of `outcome`'s row carried out. A store that
   * fails is logged and the effects still follow: this process alone holds the asker, who must not wait forever.
   * Resolves whether this outcome settled it.
   */
  async settle(id: string, outcome: Outcome): Promise<boolean> {
    const held = this.#held.get(id);
    if (!held) return false;
    this.#release(held);
    const effects = effectsOf(outcome);
    const settlement = effects.record(outcome, held);
    const won = held.recorded && effects.writes !== false ? await withinQuestion(held.span, () => this.#record(held, outcome, settlement)) : outcome;
    questionSettled(held.span, won, settlement);
    if (won === undefined) return false;
    // Written elsewhere: the operators of this desk see the change too.
    if (won.kind === 'settled-elsewhere') this.#emit({ type: 'updated', question: won.record, elsewhere: true });
    try {
      const row = won === outcome ? effects : effectsOf(won);
      act(held, won, row, won === outcome ? settlement : row.record(won, held), this.#logger);
    } catch (error) {
      this.#logger.log('error', `acting on the settlement of question ${id} failed`, { error: error instanceof Error ? error.message : String(error) });
    }
    return won === outcome;
  }

  /**
   * Writes `outcome` by compare-and-set and resolves the outcome to act on: `outcome` when its write won (or the
   * store failed: this process alone holds the asker, who must not wait forever); when another writer of a shared
   * store settled it first, what that writer recorded (this instance holds the call, so it carries that out);
   * undefined when there is nothing to act on.
   */
  async #record(held: HeldQuestion, outcome: Outcome, settlement: Settlement): Promise<Outcome | undefined> {
    const id = held.id;
    this.#watch?.ownWrite(id);
    try {
      // A question created committed only: nothing about it is written, or acted on, before its creation is on disk.
      if (held.onDisk) await held.onDisk;
      if (settlement.before) await this.#store.audit({ questionId: id, ...settlement.before });
      const by = settlement.answeredBy;
      const actor = by.kind === 'host' ? `host:${by.sessionId}` : by.kind === 'operator' ? answererActor(by) : 'gateway';
      const detail = by.kind === 'gateway' ? { reason: by.reason } : by.kind === 'operator' && by.subject !== undefined && by.issuer !== undefined ? { issuer: by.issuer, subject: by.subject } : undefined;
      const updated = await this.#store.transition(id, {
        from: OPEN_STATES,
        to: settlement.to,
        answer: answerAtRest(held.method as QuestionRecord['method'], held.params, settlement.answer),
        answeredBy: by,
        audit: { actor, action: settlement.to, ...(detail ? { detail } : {}) },
      });
      if (updated) {
        if (this.#listeners.any) this.#emit({ type: 'updated', question: updated });
        return outcome;
      }
      this.#watch?.notWritten(id);
      const record = await this.#store.get(id);
      this.#logger.log('info', `question ${id} was settled elsewhere first (${record?.state ?? 'gone'}): ${outcome.kind} dropped`, { session: held.hostSessionId });
      return record && !OPEN_STATES.includes(record.state) ? { kind: 'settled-elsewhere', record } : undefined;
    } catch (error) {
      this.#watch?.notWritten(id);
      this.#logger.log('error', `could not record the settlement of question ${id}`, { error: error instanceof Error ? error.message : String(error) });
      return outcome;
    }
  }

  /** Lets go of a question: no outcome after this one reaches it. */
  #release(held: HeldQuestion): void {
    this.#held.delete(held.id);
    if (held.timer) clearTimeout(held.timer);
    held.seat?.open.delete(held.id);
    if (held.seat && held.hostKey !== undefined) held.seat.keys.delete(held.hostKey);
  }

  /** Settles each open question of `seat` that `which` picks with `outcome` (in the background; failures are logged by `settle`). */
  settleWhere(seat: HostSeat, which: (question: HeldQuestion) => boolean, outcome: Outcome): HeldQuestion[] {
    const picked = [...seat.open.values()].filter(which);
    for (const question of picked) void this.settle(question.id, outcome);
    return picked;
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

  mayAnswer(operator: Principal, question: QuestionRecord): boolean {
    return questionFor(this.#answerers, operator, question);
  }

  async approvals(question: QuestionRecord): Promise<ApprovalState | undefined> {
    const needed = approvalsNeeded(this.#approvers, question.origin.tool);
    return needed > 1 ? { needed, approvers: approversIn(await this.#store.auditTrail(question.id)) } : undefined;
  }

  answer(id: string, answer: QuestionAnswer, operator: Principal): Promise<AnswerOutcome> {
    const watch = this.#watch;
    return answerAsOperator(
      {
        store: this.#store,
        answerers: this.#answerers,
        approvers: this.#approvers,
        held: (which) => this.#held.get(which),
        ...(watch ? { watch } : {}),
        emit: (record) => this.#emit({ type: 'updated', question: record }),
        settle: (which, outcome) => this.settle(which, outcome),
      },
      id,
      answer,
      operator,
    );
  }

  subscribe(listener: (event: QuestionEvent) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** Stops the timers; questions still open are abandoned (their calls end with the process). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watch?.close();
    await Promise.all([...this.#held.keys()].map((id) => this.settle(id, { kind: 'shutdown' })));
    this.#listeners.clear();
  }

  #emit(event: QuestionEvent): void {
    this.#listeners.emit(event);
  }
}

function recordFailed(): ProtocolError {
  return new ProtocolError(RpcCode.InternalError, 'The gateway could not record the question');
}
