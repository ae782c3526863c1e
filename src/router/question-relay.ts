/**
 * @module The questions of one host session, on their way to the host: each upstream request planned for the
 * host's revision (translation/plan-question.ts), handed to the question desk, and sent to the host under the key
 * the desk gives it. The desk owns every question from then on; this session's part of it is its seat.
 */

import type { TraceSpan } from '../core/tracing/trace-port.js';
import { upstreamRequestSpan } from '../upstream/upstream-span.js';
import { argumentsAtRest } from '../protocol/redact-arguments.js';
import type { CallTool } from './calls.js';
import type { QuestionMethod } from '../questions/question.js';
import { ProtocolError } from '../protocol/errors.js';
import type { JsonObject, JsonRpcId, JsonRpcRequest, JsonRpcResponse } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import type { QuestionDesk } from '../questions/desk.js';
import type { HostSeat } from '../questions/held-question.js';
import type { HostVerdict } from '../questions/host-answers.js';
import { hostVerdict } from '../questions/host-answers.js';
import type { HostProfile, QuestionRoute } from '../questions/question-route.js';
import { hostLacksCapability } from '../questions/upstream-reply.js';
import { checkOperatorAnswer } from '../translation/answers/answer-check.js';
import type { HostProfile as PlanProfile, QuestionPlan } from '../translation/plan-question.js';
import { upstreamClientCapabilities } from '../protocol/capabilities.js';
import { planQuestion } from '../translation/plan-question.js';
import type { Verdict } from '../ports/host-contracts.js';
import type { HostPort, HostQuestion } from '../ports/host-port.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { Logger } from '../core/log.js';
import type { QuestionAsker } from '../ports/question-asker.js';
import type { QuestionPolicy } from '../questions/route-policy.js';

export type { HostProfile, QuestionRoute } from '../questions/question-route.js';

/** What the relay needs of the gateway around its session (shared by every session). */
export interface RelayEnv {
  logger: Logger;
  /** The desk every question is opened at, and the route policy. */
  questions: { desk: QuestionDesk; policy: QuestionPolicy };
}

/** What the relay needs of its routed session (the session itself answers: no per-session closures). */
export interface RelaySession {
  /** Records a URL-mode elicitation relayed to this host, so its completion finds it. */
  registerUrlElicitation(upstreamKey: string, elicitationId: string, relatedRequestId: JsonRpcId | undefined): void;
  /** The tool a forwarded call is about (for the route policy and the record), when `callId` names one. */
  toolOf(upstream: QuestionAsker, callId: number | undefined): CallTool | undefined;
  /** Who the host is, as an operator is shown it: its verified principal (described) and its clientInfo name. */
  asker(): { principal?: string; clientName?: string };
  /** The input schema of a tool as last listed to this host (what marks its secret arguments). */
  toolSchema(hostTool: string): JsonObject | undefined;
}

type Relayable = Extract<QuestionPlan, { kind: 'relay' }>;

const QUESTION_METHODS = new Set<string>(['elicitation/create', 'sampling/createMessage', 'roots/list']);

function isQuestionMethod(method: string): method is QuestionMethod {
  return QUESTION_METHODS.has(method);
}

export class QuestionRelay {
  #host: HostPort;
  #env: RelayEnv;
  #session: RelaySession;
  #desk: QuestionDesk;
  /** This session's place at the desk: the keys its host knows questions by, and every question that came through it. */
  #seat: HostSeat;
  #planned: { profile: HostProfile; plan: PlanProfile } | undefined;

  constructor(host: HostPort, env: RelayEnv, session: RelaySession) {
    this.#host = host;
    this.#env = env;
    this.#session = session;
    this.#desk = env.questions.desk;
    this.#seat = this.#desk.seat(host);
  }

  /** Whether `id` names a question put to the host that it has not answered yet. */
  expectsResponse(id: JsonRpcId): boolean {
    return typeof id === 'string' && this.#seat.keys.has(id);
  }

  /** The verdict on a host's answer, checked once; `settle()` ends its question with it. */
  checkResponse(message: JsonRpcResponse): HostVerdict {
    return hostVerdict(this.#desk, this.#seat, message, this.#env.logger);
  }

  /** A host's answer: checked once and settled (an invalid one too: the upstream gets -32602). Unknown ids change nothing. */
  admitAnswer(message: JsonRpcResponse): Verdict {
    const { settle, ...verdict } = this.checkResponse(message);
    settle();
    return verdict;
  }

  /** Progress the host reports about one of its questions goes back to the asker, under its own token. */
  relayProgress(params: JsonObject): void {
    const id = typeof params.progressToken === 'string' ? this.#seat.keys.get(params.progressToken) : undefined;
    const question = id === undefined ? undefined : this.#desk.held(id);
    if (!question?.asker || question.upstreamProgressToken === undefined) return;
    void question.asker.notify('notifications/progress', { ...params, progressToken: question.upstreamProgressToken }).catch(() => undefined);
  }

  /** The session closed: every open question of it is void, and its asker told so. */
  closeAll(why: string): void {
    this.#desk.settleWhere(this.#seat, () => true, { kind: 'session-closed', why });
  }

  /**
   * Takes a question an upstream asked during (or outside) one of this host's calls: the desk records it
   * and decides who answers (this host, translated for its revision; an operator; both; nobody).
   */
  deliverQuestion(upstream: QuestionAsker, request: JsonRpcRequest, route: QuestionRoute): void {
    const profile = this.#host.profile();
    if (this.#host.closed || !profile) {
      upstream.respondError(request.id, new GatewayError('GW_ERR_SESSION_CLOSED', `Cannot relay ${request.method}: the host session is closed`).toProtocolError());
      return;
    }
    const plan = planQuestion(request.method, request.params ?? {}, this.#planFor(profile));
    if (!isQuestionMethod(request.method)) {
      // ping, or a method no revision lets an upstream ask: relayed or refused at once, nothing to record.
      if (plan.kind === 'relay') this.#relayUnrecorded(upstream, request, route, plan);
      else upstream.respondError(request.id, ProtocolError.from(plan.error));
      return;
    }
    if (plan.kind === 'refuse' && !plan.hostCannot) {
      // Ill-formed or unanswerable by anyone (limits, schema, tools; roots the host did not declare): never put to a person either.
      this.#env.logger.log('info', `refusing ${request.method} from upstream '${upstream.spec.name}': ${plan.error.message}`, { session: this.#host.id });
      upstream.respondError(request.id, plan.onlyHostCould ? hostLacksCapability(request.method, plan.error.message) : ProtocolError.from(plan.error));
      return;
    }
    void this.#open(upstream, request, request.method, route, plan, profile);
  }

  /** The host as questions are planned for it; what it can be relayed is worked out once per profile (it never changes). */
  #planFor(profile: HostProfile): PlanProfile {
    if (this.#planned?.profile !== profile) {
      const { protocolVersion: revision, capabilities } = profile;
      this.#planned = { profile, plan: { revision, capabilities, relayable: upstreamClientCapabilities(capabilities, revision) } };
    }
    return this.#planned.plan;
  }

  async #open(upstream: QuestionAsker, request: JsonRpcRequest, method: QuestionMethod, route: QuestionRoute, plan: QuestionPlan, profile: HostProfile): Promise<void> {
    let hostCannot = plan.kind === 'refuse' ? plan.error.message : undefined;
    let unreachable: ProtocolError | undefined;
    if (plan.kind === 'relay' && route.relatedRequestId === undefined && !this.#host.reachableOutsideCalls()) {
      hostCannot = `no call explains ${method} from upstream '${upstream.spec.name}' and the host has no open stream outside its calls`;
      unreachable = new GatewayError('GW_ERR_HOST_UNREACHABLE', `Not deliverable: ${hostCannot}`).toProtocolError();
    }
    const { policy } = this.#env.questions;
    const tool = route.callTool ?? this.#session.toolOf(upstream, route.callId);
    const settings = policy.for(upstream.spec.name, tool?.upstream ?? route.tool);
    const params = request.params ?? {};
    const path = this.#path(upstream, request, route, plan);
    const opened = await this.#desk.open({
      method,
      params,
      origin: {
        upstream: upstream.spec.name,
        ...(tool ? { tool: tool.host } : route.tool ? { tool: route.tool } : {}),
        hostSessionId: this.#host.id,
        ...this.#session.asker(),
        ...argumentsOf(tool, (name) => this.#session.toolSchema(name)),
        hostRevision: profile.protocolVersion,
        ...(upstream.protocolVersion === undefined ? {} : { upstreamRevision: upstream.protocolVersion }),
      },
      route: settings.route,
      consentTo: policy.consent,
      timeoutMs: route.timeoutMs ?? settings.timeoutMs,
      ...(hostCannot === undefined ? {} : { hostCannot }),
      ...(plan.kind === 'relay' ? { hostParams: plan.params, delivery: { via: this.#host.delivery } } : { hostCouldNot: plan.error.message }),
      ...(unreachable ? { unreachable } : {}),
      ...path,
      ...traceOf(upstream, route.callId),
      checkOperatorAnswer: (answer) => checkOperatorAnswer(method, params, upstream.protocolVersion ?? LATEST_LEGACY_REVISION, answer),
    });
    if (opened?.hostKey !== undefined && plan.kind === 'relay') this.#send(upstream, request, route, plan, opened.hostKey, path.upstreamProgressToken);
  }

  /** A ping (or another request no question method names) relayed as it is: held at the desk, without a record, until the host answers. */
  #relayUnrecorded(upstream: QuestionAsker, request: JsonRpcRequest, route: QuestionRoute, plan: Relayable): void {
    const path = this.#path(upstream, request, route, plan);
    const hostKey = this.#desk.relay({ ...path, asker: upstream, upstreamId: request.id, seat: this.#seat, method: request.method, params: request.params ?? {}, paused: route.pause });
    this.#send(upstream, request, route, plan, hostKey, path.upstreamProgressToken);
  }

  /** Where the question travels and what its answer must satisfy, for the desk. */
  #path(upstream: QuestionAsker, request: JsonRpcRequest, route: QuestionRoute, plan: QuestionPlan) {
    const meta = plan.kind === 'relay' && isObject(plan.params._meta) ? plan.params._meta : undefined;
    return {
      asker: upstream,
      upstreamId: request.id,
      seat: this.#seat,
      callId: route.callId,
      paused: route.pause,
      relatedRequestId: route.relatedRequestId,
      upstreamProgressToken: meta?.progressToken,
      asked: { requestedSchema: plan.kind === 'relay' ? plan.requestedSchema : undefined, upstreamSchema: plan.kind === 'relay' ? plan.upstreamSchema : undefined },
    };
  }

  /**
   * Sends a question to the host under `hostKey`, translated as planned; `upstreamProgressToken` (what `#path` read of
   * its `_meta`), when there is one, is replaced by the key.
   */
  #send(upstream: QuestionAsker, request: JsonRpcRequest, route: QuestionRoute, plan: Relayable, hostKey: string, upstreamProgressToken: unknown): void {
    const params: JsonObject = { ...plan.params };
    if (upstreamProgressToken !== undefined) params._meta = { ...(params._meta as JsonObject), progressToken: hostKey };
    // Only a host that can take URL mode is relayed one (planQuestion): its completion must find it.
    if (request.method === 'elicitation/create' && params.mode === 'url' && typeof params.elicitationId === 'string') {
      this.#session.registerUrlElicitation(upstream.key, params.elicitationId, route.relatedRequestId);
    }
    const question: HostQuestion = request.params === undefined ? { key: hostKey, method: request.method } : { key: hostKey, method: request.method, params };
    if (upstream.asksInBursts) question.more = true;
    const refused = this.#host.ask(question, route.relatedRequestId);
    // The host cannot be asked there: its refusal is its answer.
    if (refused) this.admitAnswer({ jsonrpc: '2.0', id: hostKey, error: refused });
  }

  /** Calls of an upstream session that have a question open with this host or its operators. */
  callsWithOpenQuestions(upstream: QuestionAsker): Set<number> {
    const ids = new Set<number>();
    for (const question of this.#seat.open.values()) if (question.asker === upstream && question.callId !== undefined) ids.add(question.callId);
    return ids;
  }

  /** The upstream withdrew a question (notifications/cancelled); the host is told. Returns whether it was ours. */
  withdrawQuestion(upstream: QuestionAsker, upstreamId: unknown, reason: unknown): boolean {
    const question = [...this.#seat.open.values()].find((open) => open.asker === upstream && open.upstreamId === upstreamId);
    if (!question) return false;
    void this.#desk.settle(question.id, { kind: 'upstream-withdrew', reason: typeof reason === 'string' ? reason : undefined });
    return true;
  }

  /** Drops questions of an upstream session that went away, telling the host they are void. */
  upstreamClosed(upstream: QuestionAsker, why?: string): void {
    this.#desk.settleWhere(this.#seat, (question) => question.asker === upstream, { kind: 'upstream-gone', ...(why === undefined ? {} : { why }) });
  }

  /** The host cancelled a call: the questions it had asked are void too. */
  settleCall(upstream: QuestionAsker, callId: number): void {
    this.#desk.settleWhere(this.#seat, (question) => question.asker === upstream && question.callId === callId, { kind: 'call-cancelled' });
  }
}

/** The call's arguments as an operator may see them (redacted), when the tool of the call is known with them. */
function argumentsOf(tool: { host: string; upstream: string } | CallTool | undefined, schemaOf: (hostTool: string) => JsonObject | undefined): { arguments?: JsonObject } {
  if (tool === undefined || !('arguments' in tool) || tool.arguments === undefined) return {};
  return { arguments: argumentsAtRest(tool.arguments, schemaOf(tool.host)) };
}

/** The span of the upstream request a question belongs to, when tracing is on and the call is known. */
function traceOf(upstream: QuestionAsker, callId: number | undefined): { trace?: TraceSpan } {
  const trace = upstreamRequestSpan(upstream, callId);
  return trace ? { trace } : {};
}
