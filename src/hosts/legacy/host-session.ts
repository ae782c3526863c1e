/**
 * @module One legacy host session: answers initialize, serves the merged catalog, hands each call to its
 * CallRouter (router/call-router.ts), keeps its subscriptions and tasks, and relays what upstreams send back
 * (progress, cancellation, logs, list changes); their questions go through its QuestionRelay (question-relay.ts).
 */

import type { NamingStrategy } from '../../config/types.js';
import { boundedClientInfo } from '../../protocol/client-info.js';
import { RpcCode } from '../../protocol/errors.js';
import type { JsonObject, JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { errorResponse, isObject, notification, resultResponse } from '../../protocol/jsonrpc.js';
import type { RequestEnvelope } from '../../protocol/request-envelope.js';
import { negotiateRevision } from '../../protocol/revisions.js';
import { hostTakesTasks } from '../../protocol/tasks.js';
import { Catalog } from '../../router/catalog/catalog.js';
import type { ListKind } from '../../upstream/list-all.js';
import type { HostChannel, HostSession, ResponseCheck } from '../../ports/host-contracts.js';
import { GatewayError, toProtocolError } from '../../protocol/gateway-errors.js';
import { HostTasks } from './host-tasks.js';
import { paginate } from '../../router/catalog/pagination.js';
import type { UpstreamLink } from '../../upstream/link.js';
import type { UpstreamSession } from '../../upstream/session.js';
import type { QuestionAsker } from '../../ports/question-asker.js';
import { QuestionRelay } from '../../router/question-relay.js';
import type { HostVerdict } from '../../questions/host-answers.js';
import type { QuestionRoute } from '../../questions/question-route.js';
import type { CallRouterEnv, HostInit } from '../../router/call-host.js';
import { CallRouter } from '../../router/call-router.js';
import { rootsChangedOnUpstreams, setLevelOnUpstreams } from '../../router/session-upstreams.js';
import type { TaskRequestContext } from './task-requests.js';
import { listTasks, taskRequest } from './task-requests.js';
import { downgradeResult } from '../../translation/result-downgrade.js';

export type { QuestionRoute } from '../../questions/question-route.js';
export type { ModernHostHooks } from '../../router/modern-host-hooks.js';

/** What a host session needs from the gateway that owns it. */
export interface HostSessionEnv extends CallRouterEnv<GatewayHostSession> {
  serverInfo: JsonObject;
  serverCapabilities(): JsonObject;
  /** The `tasks` capability offered to a host that takes tasks (2025-11-25): what the upstreams offer; undefined for none. */
  taskCapabilities?(): JsonObject | undefined;
  instructions(): string | undefined;
  /** Settles once every upstream's first probe ended (each bounded by its connect timeout): initialize waits for it. */
  upstreamsProbed(): Promise<void>;
  pageSize: number;
  /** Creates this session's links (per-session upstreams get their own; shared ones are reused). */
  links(session: GatewayHostSession): UpstreamLink[];
  /** Called once the session is closed. */
  onClosed(session: GatewayHostSession): void;
  naming: { strategy: NamingStrategy; separator: string };
}

const LIST_KIND_OF: Record<string, ListKind> = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
};

export class GatewayHostSession implements HostSession {
  readonly id: string;
  #channel: HostChannel;
  #env: HostSessionEnv;
  #init: HostInit | undefined;
  #initialized = false;
  #closed = false;
  #links: UpstreamLink[] = [];
  #catalog: Catalog | undefined;
  /** What upstreams ask this host: recorded, put to it or an operator, its answers relayed. */
  #relay: QuestionRelay;
  /** Where this host's calls go (router/call-router.ts): upstreams, composites, the call registry's bookkeeping. */
  #router: CallRouter<GatewayHostSession>;
  #subscriptions = new Set<string>();
  #logLevel: string | undefined;
  /** Whether this host takes tasks (2025-11-25, declared): else task-only tools are hidden and `task` is stripped. */
  #takesTasks = false;
  /** The tasks this host created, under host task ids of this session's own. */
  #tasks = new HostTasks();
  /** What this host's task requests go through. */
  #taskContext: TaskRequestContext;

  constructor(id: string, channel: HostChannel, env: HostSessionEnv) {
    this.id = id;
    this.#channel = channel;
    this.#env = env;
    const isClosed = () => this.#closed;
    this.#relay = new QuestionRelay({
      host: {
        id,
        get closed() {
          return isClosed();
        },
        profile: () => this.#init,
        toolOf: (upstream, callId) => env.calls.find(upstream, callId, this)?.tool,
      },
      channel,
      env: {
        logger: env.logger,
        questions: env.questions,
        registerUrlElicitation: (upstreamKey, elicitationId, relatedRequestId) => env.urlElicitations.register(upstreamKey, elicitationId, this, relatedRequestId),
        ...(env.modern ? { hostLacks: (callId: JsonRpcId, method: string, params: JsonObject) => env.modern?.hostLacks(callId, method, params) } : {}),
      },
    });
    this.#router = new CallRouter<GatewayHostSession>(
      {
        owner: this,
        profile: () => this.#init,
        logLevel: () => this.#logLevel,
        takesTasks: () => this.#takesTasks,
        catalog: () => this.#requireCatalog(),
        links: () => this.#links,
        notify: (message, streamId) => this.forward(message, streamId),
        taskCreated: (upstream, result) => this.#tasks.createdToHost(upstream, result),
        settleQuestions: (upstream, upstreamId) => this.#relay.settleCall(upstream, upstreamId),
      },
      env,
    );
    const send: TaskRequestContext['send'] = (request, upstream, params, timeoutMs) => this.#router.forwardOnce(request, upstream, params, undefined, timeoutMs);
    this.#taskContext = { tasks: this.#tasks, send, logger: env.logger, sessionId: id, pageSize: env.pageSize };
  }

  get protocolVersion(): string | undefined {
    return this.#init?.protocolVersion;
  }

  /** What CallRouter.initParamsFor says (router/call-router.ts). */
  initParamsFor(upstream: string): HostInit | undefined {
    return this.#router.initParamsFor(upstream);
  }

  /** What CallRouter.envelopeFor says (router/call-router.ts). */
  envelopeFor(upstream: string): RequestEnvelope {
    return this.#router.envelopeFor(upstream);
  }

  get clientCapabilities(): JsonObject {
    return this.#init?.capabilities ?? {};
  }

  get logLevel(): string | undefined {
    return this.#logLevel;
  }

  get closed(): boolean {
    return this.#closed;
  }

  isSubscribed(uri: string): boolean {
    return this.#subscriptions.has(uri);
  }

  /**
   * Initializes a session no `initialize` reached: the stand-in for 2026-07-28 hosts, whose every request
   * says what `init` holds. Its questions are translated as for a host of `init.protocolVersion`.
   */
  openStateless(init: HostInit & { logLevel?: string }): void {
    if (this.#init) throw new GatewayError('GW_ERR_ALREADY_INITIALIZED', 'Session already initialized');
    this.#initialize({ protocolVersion: init.protocolVersion, capabilities: init.capabilities, clientInfo: init.clientInfo });
    this.#initialized = true;
    this.#logLevel = init.logLevel;
  }

  /** What CallRouter.toolInputSchema says (router/call-router.ts). */
  toolInputSchema(name: unknown): Promise<JsonObject | undefined> {
    return this.#router.toolInputSchema(name);
  }

  /** What CallRouter.upstreamOf says (router/call-router.ts). */
  upstreamOf(method: string, params: JsonObject): Promise<{ upstream: string; tool?: string }> {
    return this.#router.upstreamOf(method, params);
  }

  receive(message: JsonRpcMessage): void {
    if (this.#closed) return;
    if ('method' in message) {
      if ('id' in message) void this.#onRequest(message);
      else this.#onNotification(message);
      return;
    }
    this.#relay.admitAnswer(message);
  }

  expectsResponse(id: JsonRpcId): boolean {
    return this.#relay.expectsResponse(id);
  }

  /** The verdict on a host's answer, checked once: `settle()` then ends its question with it (a 2026-07-28 retry's answers). */
  checkResponse(message: JsonRpcResponse): HostVerdict {
    return this.#relay.checkResponse(message);
  }

  admitAnswer(message: JsonRpcResponse): ResponseCheck {
    return this.#closed ? this.#relay.checkResponse(message) : this.#relay.admitAnswer(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Composites first: each stops its steps' calls (and their questions) before the rest are cancelled.
    this.#router.stopAll('the host session closed');
    this.#relay.closeAll('the host session closed');
    await Promise.all(this.#links.map((link) => (link.spec.sharing === 'per-session' ? link.close() : Promise.resolve())));
    this.#env.onClosed(this);
  }

  // ---- from the upstreams -------------------------------------------------------------------------

  /**
   * Takes a question an upstream asked during (or outside) one of this host's calls: the desk records it
   * and decides who answers (this host, translated for its revision; an operator; both; nobody).
   */
  deliverQuestion(upstream: QuestionAsker, request: JsonRpcRequest, route: QuestionRoute): void {
    // A question of one of this host's tasks names the task as the host knows it.
    this.#relay.deliverQuestion(upstream, this.#tasks.requestToHost(upstream, request), route);
  }

  /** Calls of an upstream session that have a question open with this host or its operators. */
  callsWithOpenQuestions(upstream: QuestionAsker): Set<number> {
    return this.#relay.callsWithOpenQuestions(upstream);
  }

  /** The upstream withdrew a question (notifications/cancelled); tell the host. Returns whether it was ours. */
  withdrawQuestion(upstream: QuestionAsker, upstreamId: unknown, reason: unknown): boolean {
    return this.#relay.withdrawQuestion(upstream, upstreamId, reason);
  }

  /** Drops questions of an upstream session that went away, telling the host they are void. */
  upstreamClosed(upstream: QuestionAsker): void {
    this.#relay.upstreamClosed(upstream);
    this.#tasks.dropUpstream(upstream);
  }

  /**
   * An upstream's `notifications/tasks/status`: relayed (the task named as this host knows it) when the task is
   * this host's. Returns whether it was.
   */
  taskStatus(upstream: UpstreamSession, message: JsonRpcNotification): boolean {
    const shown = this.#takesTasks ? this.#tasks.taskToHost(upstream, message.params ?? {}) : undefined;
    if (!shown) return false;
    this.forward(notification(message.method, shown));
    return true;
  }

  /** Forwards an upstream notification to this host (on the stream of the call it belongs to, if any). */
  forward(message: JsonRpcNotification, relatedRequestId?: JsonRpcId): void {
    if (this.#closed || !this.#initialized) return;
    this.#channel.send(message, relatedRequestId);
  }

  /**
   * Relays an upstream's `notifications/elicitation/complete` for a URL elicitation this host received:
   * on the stream of the call that carried it while that call is still open, else outside any call.
   */
  elicitationComplete(message: JsonRpcNotification, relatedRequestId: JsonRpcId | undefined): void {
    const open = relatedRequestId !== undefined && this.#env.calls.get(this, relatedRequestId)?.kind === 'forwarded';
    this.forward(message, open ? relatedRequestId : undefined);
  }

  /** A list of one upstream changed: the merged list may have changed too. */
  listChanged(method: string): void {
    this.forward(notification(method));
  }

  // ---- from the host ------------------------------------------------------------------------------

  async #onRequest(request: JsonRpcRequest): Promise<void> {
    let response: JsonRpcResponse | undefined;
    try {
      const result = (await this.#dispatch(request)) ?? {};
      // Results come as the upstream's revision made them: fit them to what this host's revision knows.
      response = resultResponse(request.id, this.#init ? downgradeResult(request.method, result, this.#init.protocolVersion) : result);
    } catch (error) {
      const protocolError = toProtocolError(error);
      if (protocolError.code === RpcCode.InternalError) {
        this.#env.logger.log('error', `request ${request.method} failed`, { session: this.id, error: String(error) });
      }
      // A call the host cancelled still gets this error, so that its HTTP stream can end.
      response = errorResponse(request.id, protocolError.toJson());
    }
    if (!this.#closed) this.#channel.send(response, request.id);
  }

  async #dispatch(request: JsonRpcRequest): Promise<JsonObject | undefined> {
    const params = request.params ?? {};
    if (request.method === 'initialize') return this.#answerInitialize(params);
    if (request.method === 'ping') return {};
    if (!this.#init) throw new GatewayError('GW_ERR_NOT_INITIALIZED', 'Session not initialized: send initialize first');
    const listKind = LIST_KIND_OF[request.method];
    if (listKind) return this.#list(listKind, params);
    switch (request.method) {
      case 'tools/call':
      case 'prompts/get':
      case 'resources/read':
      case 'completion/complete':
        return this.#router.route(request);
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const route = await this.#requireCatalog().routeResource(params.uri);
        const result = await this.#router.call(request, route, 'uri');
        if (request.method === 'resources/subscribe') this.#subscriptions.add(route.name);
        else this.#subscriptions.delete(route.name);
        return result;
      }
      case 'logging/setLevel':
        return this.#setLevel(params);
      case 'tasks/get':
      case 'tasks/result':
      case 'tasks/cancel':
        if (this.#takesTasks) return taskRequest(this.#taskContext, request, params);
        break;
      case 'tasks/list':
        if (this.#takesTasks) return listTasks(this.#taskContext, params);
        break;
    }
    throw new GatewayError('GW_ERR_METHOD_NOT_FOUND', `Method not found: ${request.method}`);
  }

  /**
   * The answer to `initialize`, once every upstream's first probe ended (at most its connect timeout): with
   * their capabilities and instructions, not the partial picture of a gateway that just started.
   */
  async #answerInitialize(params: JsonObject): Promise<JsonObject> {
    const protocolVersion = this.#initialize(params);
    await this.#env.upstreamsProbed();
    const tasks = this.#takesTasks ? this.#env.taskCapabilities?.() : undefined;
    const result: JsonObject = {
      protocolVersion,
      capabilities: { ...this.#env.serverCapabilities(), ...(tasks ? { tasks } : {}) },
      serverInfo: this.#env.serverInfo,
    };
    const instructions = this.#env.instructions();
    if (instructions) result.instructions = instructions;
    return result;
  }

  /** Takes the host's initialize params (its revision, capabilities, identity) and opens its links; returns the revision. */
  #initialize(params: JsonObject): string {
    if (this.#init) throw new GatewayError('GW_ERR_ALREADY_INITIALIZED', 'Session already initialized');
    const protocolVersion = negotiateRevision(params.protocolVersion);
    this.#init = {
      protocolVersion,
      capabilities: isObject(params.capabilities) ? params.capabilities : {},
      // Only the schema's fields, bounded: the host's object as sent never reaches an upstream.
      clientInfo: boundedClientInfo(params.clientInfo),
    };
    // A 2026-07-28 host's stand-in never takes them: its revision has Tasks as an extension only.
    this.#takesTasks = hostTakesTasks(this.#init.capabilities, protocolVersion) && !this.#env.modern;
    this.#links = this.#env.links(this);
    this.#catalog = new Catalog(this.#links, { naming: this.#env.naming, logger: this.#env.logger });
    return protocolVersion;
  }

  async #list(kind: ListKind, params: JsonObject): Promise<JsonObject> {
    const listed = await this.#requireCatalog().list(kind);
    const items = kind === 'tools' ? await this.#router.hostTools(listed) : listed;
    const page = paginate(items, params.cursor, this.#env.pageSize);
    const result: JsonObject = { [kind]: page.items };
    if (page.nextCursor) result.nextCursor = page.nextCursor;
    return result;
  }

  async #setLevel(params: JsonObject): Promise<JsonObject> {
    if (typeof params.level !== 'string') throw new GatewayError('GW_ERR_INVALID_PARAMS', 'Invalid params: level must be a string');
    this.#logLevel = params.level;
    await setLevelOnUpstreams(this.#links, params.level, this.#env.logger);
    return {};
  }

  #onNotification(message: JsonRpcNotification): void {
    const params = message.params ?? {};
    switch (message.method) {
      case 'notifications/initialized':
        this.#initialized = true;
        return;
      case 'notifications/cancelled': {
        const reason = typeof params.reason === 'string' ? params.reason : 'cancelled by the host';
        this.#router.stopCall(this.#env.calls.get(this, params.requestId as JsonRpcId), 'host-cancelled', reason);
        return;
      }
      case 'notifications/progress': {
        this.#relay.relayProgress(params);
        return;
      }
      case 'notifications/roots/list_changed':
        rootsChangedOnUpstreams(this.#links);
        return;
      default:
        this.#env.logger.log('debug', `ignoring host notification ${message.method}`, { session: this.id });
    }
  }

  #requireCatalog(): Catalog {
    if (!this.#catalog) throw new GatewayError('GW_ERR_NOT_INITIALIZED', 'Session not initialized: send initialize first');
    return this.#catalog;
  }
}
