/**
 * @module Pair 2 of the era bridge: a 2026-07-28 upstream's `input_required` relayed to a 2026-07-28 host
 * with the upstream's state sealed in a `wrapped` handle, each input request opened at the question desk.
 */

import { decideAudience } from '../../questions/audience.js';
import { consentReason } from '../../questions/consent-rule.js';
import type { QuestionMethod } from '../../questions/question.js';
import type { HandleKeyRing } from '../../bridge/handle-keys.js';
import { MAX_HANDLE_TTL_MS, MAX_WRAPPED_STATE_LENGTH, sealHandle } from '../../bridge/request-state.js';
import { missingInputCapabilities } from '../../protocol/input-capabilities.js';
import type { InputRequest } from '../../protocol/input-required.js';
import { parseInputRequiredResult } from '../../protocol/input-required.js';
import { inputResponseProblem, originalParams } from '../../protocol/input-retry.js';
import type { JsonObject, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { LATEST_LEGACY_REVISION, MODERN_REVISION } from '../../protocol/revisions.js';
import type { QuestionDesk } from '../../questions/desk.js';
import { checkHostAnswer } from '../../translation/answers/answer-check.js';
import { planQuestion } from '../../translation/plan-question.js';
import type { UpstreamRound } from '../../ports/host-port.js';
import type { Logger } from '../../core/log.js';
import type { QuestionPolicy } from '../../questions/route-policy.js';

/** One input request of a relayed round, as recorded: its key, its record at the desk, what its answer must satisfy. */
interface RecordedQuestion {
  key: string;
  questionId: string;
  method: QuestionMethod;
  requestedSchema: JsonObject | undefined;
  upstreamSchema: JsonObject | undefined;
}

export interface WrappedRoundsOptions {
  questions: { desk: QuestionDesk; policy: QuestionPolicy };
  keys: HandleKeyRing;
  logger: Logger;
  now(): number;
}

export type AnswerCheck = { ok: true } | { ok: false; key: string; reason: string };

export class WrappedRounds {
  #options: WrappedRoundsOptions;
  /** Rounds relayed by this process, by the id of their handle, until the handle expires. */
  #rounds = new Map<string, { questions: RecordedQuestion[]; expiresAt: number }>();

  constructor(options: WrappedRoundsOptions) {
    this.#options = options;
  }

  /**
   * The result the host gets for an upstream's `input_required`, or undefined when the gateway must run the
   * rounds itself instead and asks the usual way: the host did not declare what a request needs, the
   * route policy or the consent rule gives a question to an operator, a request is not fit to relay (the
   * same limits and checks as every question), or the upstream's state is too long to wrap.
   */
  async relay(input: UpstreamRound & { principal: string }): Promise<JsonObject | undefined> {
    const parsed = parseInputRequiredResult(input.result, input.method);
    if (!parsed.ok) return undefined; // the gateway's own loop reports the upstream's fault
    const entries = Object.entries(parsed.result.inputRequests ?? {});
    if (missingInputCapabilities(input.hostCapabilities, entries.map(([, request]) => request)) !== undefined) return undefined;
    const state = parsed.result.requestState;
    if (state !== undefined && state.length > MAX_WRAPPED_STATE_LENGTH) return undefined;
    const { desk, policy } = this.#options.questions;
    const settings = policy.for(input.upstream, input.tool);
    const planned: { key: string; request: InputRequest; params: JsonObject; plan: { requestedSchema?: JsonObject; upstreamSchema?: JsonObject } }[] = [];
    for (const [key, request] of entries) {
      const params = request.params ?? {};
      const plan = planQuestion(request.method, params, { revision: LATEST_LEGACY_REVISION, capabilities: input.hostCapabilities });
      if (plan.kind !== 'relay') return undefined;
      const audience = decideAudience({
        policy: settings.route,
        hostCannot: undefined,
        consent: consentReason(request.method, params),
        consentTo: policy.consent,
        operatorAvailable: desk.operatorAvailable,
      });
      if (audience.audience !== 'host') return undefined;
      planned.push({ key, request, params: plan.params, plan });
    }

    const ttlMs = Math.min(MAX_HANDLE_TTL_MS, settings.timeoutMs);
    const recorded: RecordedQuestion[] = [];
    const inputRequests: JsonObject = {};
    for (const { key, request, params, plan } of planned) {
      // Recorded as delivered in one write: the host gets it inside this result, under its key.
      const opened = await desk.open({
        method: request.method,
        params: request.params ?? {},
        origin: { upstream: input.upstream, ...(input.hostTool ? { tool: input.hostTool } : {}), hostSessionId: input.hostSessionId, hostRevision: MODERN_REVISION },
        route: settings.route,
        consentTo: policy.consent,
        timeoutMs: ttlMs,
        hostParams: params,
        delivery: { via: 'input_required', key },
        // The upstream holds nothing to answer: only the host's retry, carrying the answer and the state, can.
        checkOperatorAnswer: () => ({ ok: false, reason: 'this question belongs to a 2026-07-28 host and is answered by its retry' }),
      });
      if (!opened) return undefined; // the store refused it: the gateway runs the rounds itself
      recorded.push({ key, questionId: opened.record.id, method: request.method, requestedSchema: plan.requestedSchema, upstreamSchema: plan.upstreamSchema });
      inputRequests[key] = { method: request.method, params };
    }
    const relayed: JsonObject = { ...input.result, inputRequests };
    if (state === undefined) return relayed;
    const sealed = sealHandle(
      { kind: 'wrapped', upstream: input.upstream, principal: input.principal, method: input.method, params: originalParams(input.hostParams), ttlMs, upstreamState: state },
      this.#options.keys,
      this.#options.now(),
    );
    this.#prune();
    this.#rounds.set(sealed.payload.id, { questions: recorded, expiresAt: sealed.payload.expiresAt });
    relayed.requestState = sealed.text;
    return relayed;
  }

  /** Checks a retry's answers to a round this process relayed (shape, limits, the schema it was asked with). */
  check(handleId: string, inputResponses: unknown): AnswerCheck {
    const round = this.#rounds.get(handleId);
    if (!round || !isObject(inputResponses)) return { ok: true };
    for (const question of round.questions) {
      const value = inputResponses[question.key];
      if (value === undefined) continue;
      const problem = inputResponseProblem({ method: question.method }, value) ?? hostAnswerProblem(question, value as JsonObject);
      if (problem !== undefined) return { ok: false, key: question.key, reason: problem };
    }
    return { ok: true };
  }

  /** Records a retry's (checked) answers as the host's, once: a later retry with the same handle records nothing. */
  async recordAnswers(handleId: string, inputResponses: unknown): Promise<void> {
    const round = this.#rounds.get(handleId);
    if (!round || !isObject(inputResponses)) return;
    this.#rounds.delete(handleId);
    for (const question of round.questions) {
      const value = inputResponses[question.key];
      if (!isObject(value)) continue;
      const message: JsonRpcResponse = { jsonrpc: '2.0', id: question.key, result: value };
      const won = await this.#options.questions.desk.settle(question.questionId, { kind: 'host-answer', message, checked: value });
      if (!won) this.#options.logger.log('info', `the answer to question ${question.questionId} came after it was settled; relayed to the upstream all the same`);
    }
  }

  #prune(): void {
    const now = this.#options.now();
    for (const [id, round] of this.#rounds) if (round.expiresAt <= now) this.#rounds.delete(id);
  }
}

function hostAnswerProblem(question: RecordedQuestion, value: JsonObject): string | undefined {
  const checked = checkHostAnswer(question, { jsonrpc: '2.0', id: question.key, result: value });
  return checked.ok ? undefined : checked.reason;
}
