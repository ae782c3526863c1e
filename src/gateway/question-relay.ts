/**
 * @module The questions of one host session: each upstream question recorded through the broker, put to the
 * host (translated for its revision) or left to an operator, the host's answers checked and relayed, and the
 * questions of a call, an upstream or the session voided when they go away.
 */

import type { QuestionMethod, QuestionRecord } from '../broker/question.js';
import { ProtocolError, RpcCode } from '../protocol/errors.js';
import type { JsonObject, JsonRpcId, JsonRpcRequest, JsonRpcResponse } from '../protocol/jsonrpc.js';
import { isErrorResponse, isObject, notification } from '../protocol/jsonrpc.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import type { QuestionPlan } from '../translation/plan-question.js';
import { planQuestion } from '../translation/plan-question.js';
import { fitSamplingResult } from '../translation/sampling-content.js';
import type { HostChannel, ResponseCheck } from './contracts.js';
import { GatewayError, RPC_CODE_FOR } from './errors.js';
import { brokerAnswer, checkHostAnswer } from './host-answer.js';
import type { GatewayHostSession, HostSessionEnv } from './host-session.js';
import { checkOperatorAnswer, upstreamReply } from './operator-answer.js';
import type { QuestionAsker } from './question-asker.js';

/** The host's revision and capabilities, as it declared them at initialize. */
export interface HostProfile {
  protocolVersion: string;
  capabilities: JsonObject;
}

/** What the relay needs of its host session. */
export interface RelayHost {
  readonly id: string;
  readonly closed: boolean;
  /** Undefined before initialize. */
  profile(): HostProfile | undefined;
  /** The tool a forwarded call is about (for the route policy and the record), when `callId` names one. */
  toolOf(upstream: QuestionAsker, callId: number | undefined): { host: string; upstream: string } | undefined;
}

/** A question relayed to the host: where its answer goes. */
interface RelayedQuestion {
  upstream: QuestionAsker;
  upstreamId: JsonRpcId;
  /** The forwarded call the question was attributed to. */
  callId: number | undefined;
  /** Forwarded calls whose timeout is paused while the host answers. */
  paused: number[];
  relatedRequestId: JsonRpcId | undefined;
  /** The upstream's own progress token, when the question carried one. */
  upstreamProgressToken: unknown;
  /** For a form elicitation: the schema the host was sent, which its answer must satisfy. */
  requestedSchema: JsonObject | undefined;
  /** For a form downgraded for the host: the upstream's own schema (its defaults fill the answer, which must satisfy it). */
  upstreamSchema: JsonObject | undefined;
  method: string;
  /** The broker's record of it. */
  brokerId: string | undefined;
}

/** A question in the broker's hands: put to the host, to an operator, or both. */
interface BrokeredQuestion {
  upstream: QuestionAsker;
  upstreamId: JsonRpcId;
  callId: number | undefined;
  paused: number[];
  relatedRequestId: JsonRpcId | undefined;
  plan: QuestionPlan;
  /** The id the host knows it by, while the host has it. */
  hostId: string | undefined;
  /** The host could have taken it but cannot be reached now: the error the upstream gets if nobody else answers. */
  unreachable: ProtocolError | undefined;
}

/** Where a relayed question goes and which calls wait on it. */
export interface QuestionRoute {
  /** The call it was attributed to, if any. */
  callId: number | undefined;
  /** The host request whose stream carries it (undefined: the standalone stream). */
  relatedRequestId: JsonRpcId | undefined;
  /** Calls whose timeout stops until the host answers. */
  pause: number[];
  /** How long the question may wait, when the asker decides it (a composite's elicit step); else the route policy's. */
  timeoutMs?: number;
  /** The policy key of the tool the question is about, when no upstream call names it (a composite). */
  tool?: string;
}

let questionCounter = 0;

/** The error a host lacking what a `method` question needs would send: -32601, GW_ERR_HOST_LACKS_CAPABILITY in `data`. */
function hostLacksCapability(method: string, why: string): ProtocolError {
  return new GatewayError('GW_ERR_HOST_LACKS_CAPABILITY', `Method not found: ${method} (${why})`).toProtocolError();
}

const QUESTION_METHODS = new Set<string>(['elicitation/create', 'sampling/createMessage', 'roots/list']);
const OPEN = new Set<string>(['pending', 'delivered']);

function isQuestionMethod(method: string): method is QuestionMethod {
  return QUESTION_METHODS.has(method);
}

export class QuestionRelay {
  #host: RelayHost;
  /** The session itself, as the URL-elicitation registry knows hosts. */
  #session: GatewayHostSession;
  #channel: HostChannel;
  #env: HostSessionEnv;
  #questions = new Map<string, RelayedQuestion>();
  /** By broker id: every question of this session the broker holds open. */
  #brokered = new Map<string, BrokeredQuestion>();

  constructor(input: { host: RelayHost; session: GatewayHostSession; channel: HostChannel; env: HostSessionEnv }) {
    this.#host = input.host;
    this.#session = input.session;
    this.#channel = input.channel;
    this.#env = input.env;
  }

  /** Whether `id` names a question put to the host that it has not answered yet. */
  expectsResponse(id: JsonRpcId): boolean {
    return typeof id === 'string' && this.#questions.has(id);
  }

  checkResponse(message: JsonRpcResponse): ResponseCheck {
    const question = typeof message.id === 'string' ? this.#questions.get(message.id) : undefined;
    if (!question) return { ok: false, kind: 'unknown', reason: `Unknown response id ${JSON.stringify(message.id)}` };
    const answer = checkHostAnswer(question, message);
    return answer.ok ? { ok: true } : { ok: false, kind: 'invalid', reason: answer.reason, ...(answer.field === undefined ? {} : { field: answer.field }) };
  }

  /** The edges' check of a host's answer: an invalid one settles its question at once (see `#refuseAnswer`). */
  admitAnswer(message: JsonRpcResponse): ResponseCheck {
    const check = this.checkResponse(message);
    const question = typeof message.id === 'string' ? this.#questions.get(message.id) : undefined;
    if (!check.ok && check.kind === 'invalid' && question) this.#refuseAnswer(message.id as string, question, check.reason, check.field);
    return check;
  }

  /** Progress the host reports about one of its questions goes back to the asker, under its own token. */
  relayProgress(params: JsonObject): void {
    const question = typeof params.progressToken === 'string' ? this.#questions.get(params.progressToken) : undefined;
    if (!question || question.upstreamProgressToken === undefined) return;
    void question.upstream.notify('notifications/progress', { ...params, progressToken: question.upstreamProgressToken }).catch(() => undefined);
  }

  /** The session closed: every open question is void, and its asker told so. */
  closeAll(why: string): void {
    for (const [id, question] of this.#questions) {
      this.#questions.delete(id);
      this.#forget(question.brokerId, why);
      this.#answerUpstreamOnAbandon(question, why);
    }
    for (const [id, brokered] of this.#brokered) {
      this.#forget(id, why);
      this.#answerUpstreamOnAbandon(brokered, why);
    }
  }

  /**
   * Takes a question an upstream asked during (or outside) one of this host's calls: the broker records it
   * and decides who answers (this host, translated for its revision; an operator; both; nobody).
   */
  deliverQuestion(upstream: QuestionAsker, request: JsonRpcRequest, route: QuestionRoute): void {
    const profile = this.#host.profile();
    if (this.#host.closed || !profile) {
      upstream.respondError(request.id, new GatewayError('GW_ERR_SESSION_CLOSED', `Cannot relay ${request.method}: the host session is closed`).toProtocolError());
      return;
    }
    const plan = planQuestion(request.method, request.params ?? {}, { revision: profile.protocolVersion, capabilities: profile.capabilities });
    if (!isQuestionMethod(request.method)) {
      // ping, or a method no revision lets an upstream ask: relayed or refused at once, nothing to record.
      if (plan.kind === 'relay') this.#sendToHost(upstream, request, route, plan, undefined);
      else upstream.respondError(request.id, ProtocolError.from(plan.error));
      return;
    }
    if (plan.kind === 'refuse' && !plan.hostCannot) {
      // Ill-formed or unanswerable by anyone (limits, schema, tools; roots the host did not declare): never put to a person either.
      this.#env.logger.log('info', `refusing ${request.method} from upstream '${upstream.spec.name}': ${plan.error.message}`, { session: this.#host.id });
      upstream.respondError(request.id, plan.onlyHostCould ? hostLacksCapability(request.method, plan.error.message) : ProtocolError.from(plan.error));
      return;
    }
    void this.#broker(upstream, request, request.method, route, plan).catch((error: unknown) => {
      this.#env.logger.log('error', `could not record ${request.method} from upstream '${upstream.spec.name}'`, { session: this.#host.id, error: String(error) });
      for (const id of route.pause) upstream.resume(id);
      upstream.respondError(request.id, new ProtocolError(RpcCode.InternalError, 'The gateway could not record the question'));
    });
  }

  async #broker(upstream: QuestionAsker, request: JsonRpcRequest, method: QuestionMethod, route: QuestionRoute, plan: QuestionPlan): Promise<void> {
    const init = this.#host.profile() as HostProfile;
    let hostCannot = plan.kind === 'refuse' ? plan.error.message : undefined;
    let unreachable: ProtocolError | undefined;
    if (plan.kind === 'relay' && route.relatedRequestId === undefined && this.#channel.canReachOutsideCalls?.() === false) {
      hostCannot = `no call explains ${method} from upstream '${upstream.spec.name}' and the host has no open stream outside its calls`;
      unreachable = new GatewayError('GW_ERR_HOST_UNREACHABLE', `Not deliverable: ${hostCannot}`).toProtocolError();
    }
    const tool = this.#host.toolOf(upstream, route.callId);
    const settings = this.#env.questions.policy.for(upstream.spec.name, tool?.upstream ?? route.tool);
    const params = request.params ?? {};
    const brokered: BrokeredQuestion = {
      upstream,
      upstreamId: request.id,
      callId: route.callId,
      paused: route.pause,
      relatedRequestId: route.relatedRequestId,
      plan,
      hostId: undefined,
      unreachable,
    };
    for (const id of route.pause) upstream.pause(id);
    const record = await this.#env.questions.broker.open({
      method,
      params,
      origin: {
        upstream: upstream.spec.name,
        ...(tool ? { tool: tool.host } : route.tool ? { tool: route.tool } : {}),
        hostSessionId: this.#host.id,
        hostRevision: init.protocolVersion,
      },
      route: settings.route,
      consentTo: this.#env.questions.policy.consent,
      timeoutMs: route.timeoutMs ?? settings.timeoutMs,
      ...(hostCannot === undefined ? {} : { hostCannot }),
      ...(plan.kind === 'relay' ? { hostParams: plan.params } : {}),
      checkOperatorAnswer: (answer) => checkOperatorAnswer(method, params, upstream.protocolVersion ?? LATEST_LEGACY_REVISION, answer),
      onSettled: (question) => this.#onSettled(brokered, question),
    });
    upstream.recorded?.(request.id, record.id);
    if (record.audience === 'none' || !OPEN.has(record.state)) return; // settled at once (#onSettled answered the upstream)
    this.#brokered.set(record.id, brokered);
    if ((record.audience === 'host' || record.audience === 'both') && plan.kind === 'relay') {
      if (this.#host.closed) return;
      brokered.hostId = this.#sendToHost(upstream, request, route, plan, record.id);
      if (record.audience === 'host') await this.#env.questions.broker.delivered(record.id, brokered.hostId, this.#channel.questionDelivery ?? 'request');
    } else {
      this.#env.logger.log('info', `question ${record.id} (${method} from upstream '${upstream.spec.name}') waits for an operator`, { session: this.#host.id, reason: record.audienceReason });
    }
  }

  /** Sends a question to the host under a fresh id, translated as planned; returns that id. */
  #sendToHost(upstream: QuestionAsker, request: JsonRpcRequest, route: QuestionRoute, plan: Extract<QuestionPlan, { kind: 'relay' }>, brokerId: string | undefined): string {
    const hostId = `sb-${++questionCounter}`;
    const params: JsonObject = { ...plan.params };
    const meta = isObject(params._meta) ? params._meta : undefined;
    const upstreamProgressToken = meta?.progressToken;
    if (meta && upstreamProgressToken !== undefined) params._meta = { ...meta, progressToken: hostId };
    this.#questions.set(hostId, {
      upstream,
      upstreamId: request.id,
      callId: route.callId,
      paused: route.pause,
      relatedRequestId: route.relatedRequestId,
      upstreamProgressToken,
      requestedSchema: plan.requestedSchema,
      upstreamSchema: plan.upstreamSchema,
      method: request.method,
      brokerId,
    });
    // Only a host that can take URL mode is relayed one (planQuestion): its completion must find it.
    if (request.method === 'elicitation/create' && params.mode === 'url' && typeof params.elicitationId === 'string') {
      this.#env.urlElicitations.register(upstream.key, params.elicitationId, this.#session, route.relatedRequestId);
    }
    if (brokerId === undefined) for (const id of route.pause) upstream.pause(id);
    const outgoing: JsonRpcRequest = request.params === undefined
      ? { jsonrpc: '2.0', id: hostId, method: request.method }
      : { jsonrpc: '2.0', id: hostId, method: request.method, params };
    this.#channel.send(outgoing, route.relatedRequestId);
    return hostId;
  }

  /**
   * The broker settled a question. A host's answer was already relayed by #onResponse; anything else
   * (an operator, expiry, nobody to ask) is answered to the upstream here, and a host that still holds
   * the question is told it is settled. An abandoned question is answered by whoever abandoned it.
   */
  #onSettled(brokered: BrokeredQuestion, question: QuestionRecord): void {
    this.#brokered.delete(question.id);
    if (question.answeredBy?.kind === 'host') return;
    const hostHad = brokered.hostId !== undefined && this.#questions.delete(brokered.hostId);
    if (question.state === 'abandoned') return;
    for (const id of brokered.paused) brokered.upstream.resume(id);
    if (hostHad && !this.#host.closed) {
      const reason = question.state === 'expired' ? 'the question expired' : `settled by ${question.answeredBy?.kind === 'operator' ? 'an operator' : 'the gateway'}`;
      this.#channel.send(notification('notifications/cancelled', { requestId: brokered.hostId, reason }), brokered.relatedRequestId);
    }
    if (question.audience === 'none') {
      // Nobody could be asked (the host cannot take it, or the route keeps it from the host and no operator runs):
      // the upstream gets what a host lacking the capability sends (-32601), never `cancel`, which would claim a
      // person cancelled (and is no sampling or roots result at all).
      const { plan } = brokered;
      // A 2026-07-28 host can be told what it should have declared (-32021); its call ends there.
      if (plan.kind !== 'relay' && brokered.relatedRequestId !== undefined) this.#env.modern?.hostLacks(brokered.relatedRequestId, question.method, question.params);
      this.#env.logger.log('info', `answering ${question.method} from upstream '${brokered.upstream.spec.name}' without anyone: ${question.audienceReason ?? ''}`, { session: this.#host.id });
      if (brokered.unreachable) brokered.upstream.respondError(brokered.upstreamId, brokered.unreachable);
      else {
        const why = question.audienceReason ?? (plan.kind === 'refuse' ? plan.error.message : 'nobody may answer it');
        brokered.upstream.respondError(brokered.upstreamId, hostLacksCapability(question.method, why));
      }
      return;
    }
    const reply = upstreamReply(question);
    const by = question.answeredBy?.kind === 'operator' ? `the operator ${question.answeredBy.name}` : question.answeredBy?.kind === 'gateway' ? 'the gateway' : undefined;
    if ('error' in reply) brokered.upstream.respondError(brokered.upstreamId, reply.error);
    else brokered.upstream.respond(brokered.upstreamId, reply.result, by);
  }

  /** Tells the broker a question of this session is void (its call, upstream or session went away). */
  #forget(brokerId: string | undefined, why: string): void {
    if (brokerId === undefined) return;
    this.#brokered.delete(brokerId);
    void this.#env.questions.broker.withdraw(brokerId, why).catch((error: unknown) => {
      this.#env.logger.log('warn', `could not record that question ${brokerId} was withdrawn`, { error: String(error) });
    });
  }

  /** Calls of an upstream session that have a question open with this host or its operators. */
  callsWithOpenQuestions(upstream: QuestionAsker): Set<number> {
    const ids = new Set<number>();
    for (const question of [...this.#questions.values(), ...this.#brokered.values()]) {
      if (question.upstream === upstream && question.callId !== undefined) ids.add(question.callId);
    }
    return ids;
  }

  /** The upstream withdrew a question (notifications/cancelled); tell the host. Returns whether it was ours. */
  withdrawQuestion(upstream: QuestionAsker, upstreamId: unknown, reason: unknown): boolean {
    const why = typeof reason === 'string' ? reason : 'the upstream withdrew it';
    for (const [hostId, question] of this.#questions) {
      if (question.upstream !== upstream || question.upstreamId !== upstreamId) continue;
      this.#questions.delete(hostId);
      this.#forget(question.brokerId, `the upstream withdrew it: ${why}`);
      for (const id of question.paused) upstream.resume(id);
      const params: JsonObject = { requestId: hostId };
      if (typeof reason === 'string') params.reason = reason;
      this.#channel.send(notification('notifications/cancelled', params), question.relatedRequestId);
      return true;
    }
    for (const [id, brokered] of this.#brokered) {
      if (brokered.upstream !== upstream || brokered.upstreamId !== upstreamId) continue;
      this.#forget(id, `the upstream withdrew it: ${why}`);
      for (const callId of brokered.paused) upstream.resume(callId);
      return true;
    }
    return false;
  }

  /** Drops questions of an upstream session that went away, telling the host they are void. */
  upstreamClosed(upstream: QuestionAsker): void {
    for (const [hostId, question] of this.#questions) {
      if (question.upstream !== upstream) continue;
      this.#questions.delete(hostId);
      this.#forget(question.brokerId, 'the upstream went away');
      this.#channel.send(notification('notifications/cancelled', { requestId: hostId, reason: 'the upstream went away' }), question.relatedRequestId);
    }
    for (const [id, brokered] of this.#brokered) {
      if (brokered.upstream === upstream) this.#forget(id, 'the upstream went away');
    }
  }

  /** A host's answer to one of its questions (checked again here: an invalid one settles the question as in `admitAnswer`). */
  answer(message: JsonRpcResponse): void {
    if (typeof message.id !== 'string') return;
    const question = this.#questions.get(message.id);
    if (!question) return; // the edges refuse these before they get here
    const answer = checkHostAnswer(question, message);
    if (!answer.ok) {
      this.#refuseAnswer(message.id, question, answer.reason, answer.field);
      return;
    }
    this.#questions.delete(message.id);
    for (const id of question.paused) question.upstream.resume(id);
    if (question.brokerId === undefined) {
      this.#relayHostAnswer(question, message, answer.result);
      return;
    }
    // Recorded first (and only if no one settled it before: `both`), then relayed.
    const brokerId = question.brokerId;
    this.#brokered.delete(brokerId);
    void this.#env.questions.broker
      .answerFromHost(brokerId, brokerAnswer(question.method, message, answer.result), this.#host.id)
      .then((won) => {
        if (won) this.#relayHostAnswer(question, message, answer.result);
        else this.#env.logger.log('info', `host answer to ${message.id} came after question ${brokerId} was settled: dropped`, { session: this.#host.id });
      })
      .catch((error: unknown) => {
        this.#env.logger.log('error', `could not record the host's answer to question ${brokerId}`, { session: this.#host.id, error: String(error) });
        question.upstream.respondError(question.upstreamId, new ProtocolError(RpcCode.InternalError, 'The gateway could not record the answer'));
      });
  }

  /**
   * A host's answer broke the limits or the schema: real hosts answer once, so the question settles now
   * rather than at its expiry. The broker records it (`cancelled` by the host, with the refusal on the
   * audit trail) and, if that write won, the upstream gets -32602 naming the field.
   */
  #refuseAnswer(hostId: string, question: RelayedQuestion, reason: string, field: string | undefined): void {
    this.#env.logger.log('warn', `host answer to ${hostId} refused: ${reason}`, { session: this.#host.id });
    this.#questions.delete(hostId);
    for (const id of question.paused) question.upstream.resume(id);
    const error = new ProtocolError(RPC_CODE_FOR.GW_ERR_INVALID_ANSWER, `Invalid params: the host's answer was refused: ${reason}`, {
      reason: 'GW_ERR_INVALID_ANSWER',
      ...(field === undefined ? {} : { field }),
    });
    if (question.brokerId === undefined) {
      question.upstream.respondError(question.upstreamId, error);
      return;
    }
    const brokerId = question.brokerId;
    this.#brokered.delete(brokerId);
    void this.#env.questions.broker
      .refuseHostAnswer(brokerId, { reason, ...(field === undefined ? {} : { field }) }, this.#host.id)
      .then((won) => {
        if (won) question.upstream.respondError(question.upstreamId, error);
      })
      .catch((failure: unknown) => {
        this.#env.logger.log('error', `could not record the refusal of the host's answer to question ${brokerId}`, { session: this.#host.id, error: String(failure) });
        question.upstream.respondError(question.upstreamId, error);
      });
  }

  /** Hands a host's (checked) answer to the upstream that asked, fitted to the upstream's revision. */
  #relayHostAnswer(question: RelayedQuestion, message: JsonRpcResponse, checked: JsonObject | undefined): void {
    if (isErrorResponse(message)) {
      question.upstream.respondError(question.upstreamId, ProtocolError.from(message.error));
      return;
    }
    if (question.method === 'sampling/createMessage') {
      // A 2025-11-25 host may answer with an array of blocks; an older upstream holds one block.
      const fitted = fitSamplingResult(message.result, question.upstream.protocolVersion ?? LATEST_LEGACY_REVISION);
      if (!fitted.ok) {
        question.upstream.respondError(question.upstreamId, new ProtocolError(RpcCode.InternalError, `The host's sampling result cannot be relayed: ${fitted.reason}`));
        return;
      }
      question.upstream.respond(question.upstreamId, fitted.result);
      return;
    }
    question.upstream.respond(question.upstreamId, checked ?? message.result, 'the host');
  }

  /** The host cancelled a call: the questions it had asked are void too. */
  settleCall(upstream: QuestionAsker, callId: number): void {
    for (const [hostId, question] of this.#questions) {
      if (question.upstream !== upstream || question.callId !== callId) continue;
      this.#questions.delete(hostId);
      this.#forget(question.brokerId, 'the call was cancelled');
      for (const id of question.paused) question.upstream.resume(id);
      this.#channel.send(notification('notifications/cancelled', { requestId: hostId, reason: 'the call was cancelled' }), question.relatedRequestId);
      this.#answerUpstreamOnAbandon(question, 'the call was cancelled');
    }
    for (const [id, brokered] of this.#brokered) {
      if (brokered.upstream !== upstream || brokered.callId !== callId) continue;
      this.#forget(id, 'the call was cancelled');
      for (const callId of brokered.paused) brokered.upstream.resume(callId);
      this.#answerUpstreamOnAbandon(brokered, 'the call was cancelled');
    }
  }

  #answerUpstreamOnAbandon(question: { upstream: QuestionAsker; upstreamId: JsonRpcId }, why: string): void {
    question.upstream.respondError(question.upstreamId, new ProtocolError(RpcCode.RequestCancelled, `Question abandoned: ${why}`));
  }
}
