/**
 * @module One host's place in the router, whatever its era: its upstream links and merged catalog, its calls routed
 * (call-router.ts), its questions relayed to the desk (question-relay.ts), and what upstreams send back for it; the
 * host itself is reached only through its HostPort (ports/host-port.ts), which each host adapter implements.
 */

import { ANONYMOUS, ANONYMOUS_ISSUER, describePrincipal } from '../access/principal.js';
import type { NamingStrategy } from '../config/types.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/jsonrpc.js';
import { notification } from '../protocol/jsonrpc.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { Verdict } from '../ports/host-contracts.js';
import type { HostPort } from '../ports/host-port.js';
import type { QuestionAsker } from '../ports/question-asker.js';
import type { HostVerdict } from '../questions/host-answers.js';
import type { QuestionRoute } from '../questions/question-route.js';
import type { ListKind } from '../upstream/list-all.js';
import type { UpstreamLink } from '../upstream/link.js';
import type { UpstreamSession } from '../upstream/session.js';
import type { CallRouterEnv, HostInit } from './call-host.js';
import { CallRouter } from './call-router.js';
import type { Call, CallTool } from './calls.js';
import { Catalog } from './catalog/catalog.js';
import { paginate } from './catalog/pagination.js';
import { QuestionRelay } from './question-relay.js';
import { rootsChangedOnUpstreams, setLevelOnUpstreams } from './session-upstreams.js';

/** The list methods a routed session pages (`list`), by the kind of list each asks for. */
export const LIST_KIND_OF: Readonly<Record<string, ListKind>> = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
};

/** What a routed session needs from the gateway that owns it. */
export interface RoutedSessionEnv extends CallRouterEnv<RoutedSession> {
  pageSize: number;
  /** Creates this session's links (per-session upstreams get their own; shared ones are reused). */
  links(session: RoutedSession): UpstreamLink[];
  /** Called once the session is closed. */
  onClosed(session: RoutedSession): void;
  naming: { strategy: NamingStrategy; separator: string };
}

/** What a host that takes tasks (2025-11-25, declared) adds: the tasks it created, under task ids of its own (hosts/legacy/host-tasks.ts). */
export interface SessionTasks {
  takes(): boolean;
  /** An upstream's answer to a tool call it runs as a task: the task as the host knows it, recorded. */
  createdToHost(upstream: UpstreamSession, result: JsonObject): JsonObject;
  /** An upstream's task status as the host knows the task; undefined when the task is not this host's. */
  taskToHost(upstream: UpstreamSession, params: JsonObject): JsonObject | undefined;
  /** A question of one of the host's tasks names the task as the host knows it. */
  requestToHost(upstream: QuestionAsker, request: JsonRpcRequest): JsonRpcRequest;
  dropUpstream(upstream: QuestionAsker): void;
}

/** The fields only the session itself sets (read as plain fields by everyone else). */
interface OwnState {
  profile: HostInit | undefined;
  closed: boolean;
}

export class RoutedSession {
  readonly id: string;
  readonly port: HostPort;
  /** What the host said in initialize (or its 2026-07-28 envelope): undefined before open(). */
  readonly profile: HostInit | undefined = undefined;
  /** Set once, by close(). */
  readonly closed: boolean = false;
  #env: RoutedSessionEnv;
  #tasks: SessionTasks | undefined;
  #logLevel: string | undefined;
  #links: UpstreamLink[] = [];
  #catalog: Catalog | undefined;
  #relay: QuestionRelay;
  #router: CallRouter<RoutedSession>;
  /** The resource URIs the host subscribed to (undefined until its first subscription). */
  #subscriptions: Set<string> | undefined;

  /** `port` reaches the host; an adapter whose port reads this session passes a function that builds it from the session. */
  constructor(id: string, port: HostPort | ((session: RoutedSession) => HostPort), env: RoutedSessionEnv, tasks?: SessionTasks) {
    this.id = id;
    this.port = typeof port === 'function' ? port(this) : port;
    this.#env = env;
    this.#tasks = tasks;
    this.#relay = new QuestionRelay(this.port, env, this);
    this.#router = new CallRouter<RoutedSession>(this, env);
  }

  // ---- what its relay and router read of it (methods, not closures: an idle session stays small) ---------

  registerUrlElicitation(upstreamKey: string, elicitationId: string, relatedRequestId: JsonRpcId | undefined): void {
    this.#env.urlElicitations.register(upstreamKey, elicitationId, this, relatedRequestId);
  }

  toolOf(upstream: QuestionAsker, callId: number | undefined): CallTool | undefined {
    return this.#env.calls.find(upstream, callId, this)?.tool;
  }

  asker(): { principal?: string; clientName?: string } {
    return askerOf(this.profile);
  }

  toolSchema(hostTool: string): JsonObject | undefined {
    return this.#router.knownToolSchema(hostTool);
  }

  takesTasks(): boolean {
    return this.#tasks?.takes() ?? false;
  }

  get links(): readonly UpstreamLink[] {
    return this.#links;
  }

  taskCreated(upstream: UpstreamSession, result: JsonObject): JsonObject {
    return this.#tasks?.createdToHost(upstream, result) ?? result;
  }

  settleQuestions(upstream: UpstreamSession, upstreamId: number): void {
    this.#relay.settleCall(upstream, upstreamId);
  }

  /** The host said who it is (initialize, or a 2026-07-28 envelope): its links and catalog open. */
  open(init: HostInit, logLevel?: string): void {
    if (this.profile) throw new GatewayError('GW_ERR_ALREADY_INITIALIZED', 'Session already initialized');
    (this as OwnState).profile = init;
    this.#logLevel = logLevel;
    this.#links = this.#env.links(this);
    this.#catalog = new Catalog(this.#links, { naming: this.#env.naming, logger: this.#env.logger });
  }

  /**
   * The configuration changed (a reload): the links follow the pool's upstreams. A per-session link to an upstream that
   * is gone or changed (`ended`: its name, and why) closes, ending its calls and questions with that reason; one that
   * is unchanged stays as it is, its session and process too. The catalog starts afresh, under the naming now in force.
   */
  async relink(ended: ReadonlyMap<string, string>): Promise<void> {
    if (!this.profile || this.closed) return;
    const old = new Map(this.#links.map((link) => [link.spec.name, link]));
    const links = this.#env.links(this).map((fresh) => {
      const kept = old.get(fresh.spec.name);
      return kept && kept.spec.sharing === 'per-session' && fresh.spec.sharing === 'per-session' && !ended.has(fresh.spec.name) ? kept : fresh;
    });
    const stale = [...old.values()].filter((link) => link.spec.sharing === 'per-session' && !links.includes(link));
    this.#links = links;
    this.#catalog = new Catalog(links, { naming: this.#env.naming, logger: this.#env.logger });
    await Promise.all(stale.map((link) => link.close(ended.get(link.spec.name) ?? `upstream '${link.spec.name}' was removed from the configuration`)));
  }

  get protocolVersion(): string | undefined {
    return this.profile?.protocolVersion;
  }

  get logLevel(): string | undefined {
    return this.#logLevel;
  }

  /** What CallRouter.initParamsFor says (the upstream pool opens per-session upstreams with it). */
  initParamsFor(upstream: string): HostInit | undefined {
    return this.#router.initParamsFor(upstream);
  }

  /** What CallRouter.envelopeFor says. */
  envelopeFor(upstream: string): RequestEnvelope {
    return this.#router.envelopeFor(upstream);
  }

  /** What CallRouter.toolInputSchema says. */
  toolInputSchema(name: unknown): Promise<JsonObject | undefined> {
    return this.#router.toolInputSchema(name);
  }

  /** What CallRouter.upstreamOf says: where a call goes (the upstream's name, and the tool as it knows it). */
  upstreamOf(method: string, params: JsonObject): Promise<{ upstream: string; tool?: string }> {
    return this.#router.upstreamOf(method, params);
  }

  /** The merged catalog of this host's links; throws GW_ERR_NOT_INITIALIZED before the host said who it is. */
  catalog(): Catalog {
    if (!this.#catalog) throw new GatewayError('GW_ERR_NOT_INITIALIZED', 'Session not initialized: send initialize first');
    return this.#catalog;
  }

  /** One page of a merged list, as this host is shown it. */
  async list(kind: ListKind, params: JsonObject): Promise<JsonObject> {
    const listed = await this.catalog().list(kind);
    const all = kind === 'tools' ? await this.#router.hostTools(listed) : listed;
    // What the access policy does not let this host's principal use is not listed to it.
    const items = this.#env.access ? this.#env.access.filter(this.profile?.principal ?? ANONYMOUS, kind, all) : all;
    const page = paginate(items, params.cursor, this.#env.pageSize);
    const result: JsonObject = { [kind]: page.items };
    if (page.nextCursor) result.nextCursor = page.nextCursor;
    return result;
  }

  /** A tools/call, prompts/get, resources/read or completion/complete, routed (call-router.ts). */
  route(request: JsonRpcRequest): Promise<JsonObject | undefined> {
    return this.#router.route(request);
  }

  /** Sends a request to one upstream session as it is, no retry (a task request); `requestTimeoutMs` 0: no timeout. */
  sendTo(request: JsonRpcRequest, upstream: UpstreamSession, params: JsonObject, requestTimeoutMs: number | undefined): Promise<JsonObject> {
    return this.#router.forwardOnce(request, upstream, params, undefined, requestTimeoutMs);
  }

  /** The call this host has in flight under `requestId`. */
  callOf(requestId: JsonRpcId): Call<RoutedSession, UpstreamSession> | undefined {
    return this.#env.calls.get(this, requestId);
  }

  /** resources/subscribe or resources/unsubscribe, to the upstream of the URI; updates of it reach the host from then on. */
  async subscribe(request: JsonRpcRequest): Promise<JsonObject | undefined> {
    this.#router.checkAccess(request.method, request.params ?? {});
    const route = await this.catalog().routeResource(request.params?.uri);
    const result = await this.#router.call(request, route, 'uri');
    if (request.method === 'resources/subscribe') (this.#subscriptions ??= new Set()).add(route.name);
    else this.#subscriptions?.delete(route.name);
    return result;
  }

  /** logging/setLevel: the level is sent on to every legacy upstream session of this host. */
  async setLogLevel(level: string): Promise<void> {
    this.#logLevel = level;
    await setLevelOnUpstreams(this.#links, level, this.#env.logger);
  }

  /** The host cancelled its call `requestId`: it stops upstream, and the questions it asked are void. */
  cancelCall(requestId: JsonRpcId, reason: string): void {
    this.#router.stopCall(this.#env.calls.get(this, requestId), 'host-cancelled', reason);
  }

  /** Progress the host reports about one of its questions goes back to the asker. */
  relayProgress(params: JsonObject): void {
    this.#relay.relayProgress(params);
  }

  /** The host's roots changed: every upstream session of it is told. */
  rootsChanged(): void {
    rootsChangedOnUpstreams(this.#links);
  }

  // ---- the host's answers (question-relay.ts, checked once) ----------------------------------------

  expectsResponse(id: JsonRpcId): boolean {
    return this.#relay.expectsResponse(id);
  }

  checkResponse(message: JsonRpcResponse): HostVerdict {
    return this.#relay.checkResponse(message);
  }

  /** A host's answer, checked once and settled (once closed: checked only). */
  admitAnswer(message: JsonRpcResponse): Verdict {
    if (!this.closed) return this.#relay.admitAnswer(message);
    const { settle: _settle, ...verdict } = this.#relay.checkResponse(message);
    return verdict;
  }

  // ---- from the upstreams -------------------------------------------------------------------------

  /** A question an upstream asked during (or outside) one of this host's calls, to the desk through the relay. */
  deliverQuestion(upstream: QuestionAsker, request: JsonRpcRequest, route: QuestionRoute): void {
    this.#relay.deliverQuestion(upstream, this.#tasks?.takes() ? this.#tasks.requestToHost(upstream, request) : request, route);
  }

  callsWithOpenQuestions(upstream: QuestionAsker): Set<number> {
    return this.#relay.callsWithOpenQuestions(upstream);
  }

  withdrawQuestion(upstream: QuestionAsker, upstreamId: unknown, reason: unknown): boolean {
    return this.#relay.withdrawQuestion(upstream, upstreamId, reason);
  }

  upstreamClosed(upstream: QuestionAsker, why?: string): void {
    this.#relay.upstreamClosed(upstream, why);
    this.#tasks?.dropUpstream(upstream);
  }

  taskStatus(upstream: UpstreamSession, message: JsonRpcNotification): boolean {
    const shown = this.#tasks?.takes() ? this.#tasks.taskToHost(upstream, message.params ?? {}) : undefined;
    if (!shown) return false;
    this.forward(notification(message.method, shown));
    return true;
  }

  isSubscribed(uri: string): boolean {
    return this.#subscriptions?.has(uri) === true;
  }

  /** An upstream notification for this host, on the stream of the call it belongs to, if any. */
  forward(message: JsonRpcNotification, relatedRequestId?: JsonRpcId): void {
    if (this.closed) return;
    this.port.notify(message, relatedRequestId);
  }

  /** A URL elicitation's completion: on the stream of the call that carried it while that call is open, else outside any call. */
  elicitationComplete(message: JsonRpcNotification, relatedRequestId: JsonRpcId | undefined): void {
    const open = relatedRequestId !== undefined && this.#env.calls.get(this, relatedRequestId)?.kind === 'forwarded';
    this.forward(message, open ? relatedRequestId : undefined);
  }

  listChanged(method: string): void {
    this.forward(notification(method));
  }

  /** Ends the session: its calls stop (composites first), its questions are void, its per-session upstreams close. */
  async close(): Promise<void> {
    if (this.closed) return;
    (this as OwnState).closed = true;
    this.#router.stopAll('the host session closed');
    this.#relay.closeAll('the host session closed');
    await Promise.all(this.#links.map((link) => (link.spec.sharing === 'per-session' ? link.close() : Promise.resolve())));
    this.#env.onClosed(this);
  }
}

/** Who a host is, as an operator is shown it on its questions: its verified principal (not the anonymous one), its client name. */
function askerOf(profile: HostInit | undefined): { principal?: string; clientName?: string } {
  const principal = profile?.principal;
  const name = profile?.clientInfo.name;
  return {
    ...(principal && principal.issuer !== ANONYMOUS_ISSUER ? { principal: describePrincipal(principal) } : {}),
    ...(typeof name === 'string' && name !== '' ? { clientName: name } : {}),
  };
}
