/**
 * @module One host session: answers initialize, serves the merged catalog, routes each call to its
 * upstream (or runs its composite), and relays what upstreams send back (progress, cancellation, logs,
 * list changes); their questions go through the session's QuestionRelay (question-relay.ts).
 */

import type { NamingStrategy } from '../../config/types.js';
import { upstreamClientCapabilities } from '../../protocol/capabilities.js';
import { boundedClientInfo } from '../../protocol/client-info.js';
import { completeParamsProblem } from '../../protocol/complete-params.js';
import { callArgumentsProblem } from '../../protocol/call-arguments.js';
import { RpcCode } from '../../protocol/errors.js';
import type {
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from '../../protocol/jsonrpc.js';
import { errorResponse, isObject, notification, resultResponse } from '../../protocol/jsonrpc.js';
import { isLogLevel } from '../../protocol/meta-keys.js';
import { inputSchemaOf, paramHeadersFor } from '../../protocol/param-headers.js';
import type { RequestEnvelope } from '../../protocol/request-envelope.js';
import { upstreamEnvelope } from '../../protocol/request-envelope.js';
import { withoutModernResultFields } from '../../protocol/result-type.js';
import { LATEST_LEGACY_REVISION, negotiateRevision } from '../../protocol/revisions.js';
import { hostTakesTasks, isTaskOnlyTool, relatedTaskId, upstreamRunsToolTasks, withoutTaskParam, withRelatedTaskId } from '../../protocol/tasks.js';
import type { Route } from '../../router/catalog/catalog.js';
import { Catalog } from '../../router/catalog/catalog.js';
import type { ListKind } from '../../upstream/list-all.js';
import { fetchAll } from '../../upstream/list-all.js';
import type { HostChannel, HostSession, ResponseCheck } from '../../ports/host-contracts.js';
import { eraChangeOf } from '../../upstream/era-probe.js';
import { GatewayError, toProtocolError } from '../../protocol/gateway-errors.js';
import { HostTasks, listUpstreamTasks } from './host-tasks.js';
import { carryInputRequired } from '../../upstream/rounds/input-call.js';
import type { Logger } from '../../core/log.js';
import { paginate } from '../../router/catalog/pagination.js';
import type { QuestionPolicy } from '../../questions/route-policy.js';
import { withOperatorCapabilities } from '../../questions/route-policy.js';
import type { UpstreamLink } from '../../upstream/link.js';
import type { CallOptions, UpstreamSession } from '../../upstream/session.js';
import type { CompositeTools } from '../../router/composites/composite-tools.js';
import type { QuestionAsker } from '../../ports/question-asker.js';
import { QuestionRelay } from '../../router/question-relay.js';
import type { QuestionDesk } from '../../questions/desk.js';
import type { HostVerdict } from '../../questions/host-answers.js';
import type { QuestionRoute } from '../../questions/question-route.js';

export type { QuestionRoute } from '../../questions/question-route.js';
import type { UrlElicitationRegistry } from '../../router/url-elicitations.js';
import { requiredUrlElicitationIds } from '../../router/url-elicitations.js';
import { TransportError } from '../../upstream/transport/transport.js';
import { downgradeResult } from '../../translation/result-downgrade.js';
import type { Call, CallEnd, CallRegistry } from '../../router/calls.js';

/** What a host session needs from the gateway that owns it. */
export interface HostSessionEnv {
  serverInfo: JsonObject;
  serverCapabilities(): JsonObject;
  /** The `tasks` capability offered to a host that takes tasks (2025-11-25): what the upstreams offer; undefined for none. */
  taskCapabilities?(): JsonObject | undefined;
  instructions(): string | undefined;
  /** Settles once every upstream's first probe ended (each bounded by its connect timeout): initialize waits for it. */
  upstreamsProbed(): Promise<void>;
  pageSize: number;
  logger: Logger;
  /** Creates this session's links (per-session upstreams get their own; shared ones are reused). */
  links(session: GatewayHostSession): UpstreamLink[];
  /** Every host call in flight (the gateway's one registry): this session's calls are opened and ended there. */
  calls: CallRegistry<GatewayHostSession, UpstreamSession>;
  /** Called once the session is closed. */
  onClosed(session: GatewayHostSession): void;
  /** Where URL-mode elicitations relayed to hosts are recorded, so their completion finds its host. */
  urlElicitations: UrlElicitationRegistry<GatewayHostSession>;
  naming: { strategy: NamingStrategy; separator: string };
  /** The question desk, which records every question and decides who answers it (the host, an operator, both), and the route policy. */
  questions: { broker: QuestionDesk; policy: QuestionPolicy };
  /** Set for the stand-in session of 2026-07-28 hosts (gateway/modern/): what differs for them. */
  modern?: ModernHostHooks;
  /** The gateway's composite tools (config `composites`): listed after the upstreams' tools, run by the composer. */
  composites?: CompositeTools;
}

/** What a stand-in session for 2026-07-28 hosts does differently from a legacy host session. */
export interface ModernHostHooks {
  /**
   * Pair 2 of the era bridge: a modern upstream's `input_required` answer to one of the host's calls,
   * relayed to the host as it is but with the upstream's `requestState` sealed in the gateway's own.
   * Undefined when the host cannot take it as it is (then the gateway runs the rounds itself, pair 3).
   */
  relayInputRequired(input: {
    upstream: string;
    /** The tool as its upstream names it (tools/call): per-tool settings are keyed by it. */
    tool: string | undefined;
    /** The tool as the host names it (the questions' origin). */
    hostTool: string | undefined;
    method: string;
    /** The params as the host sent them (they bind the handle). */
    hostParams: JsonObject;
    result: JsonObject;
    hostCapabilities: JsonObject;
    /** The stand-in session's id (the questions' origin). */
    hostSessionId: string;
  }): Promise<JsonObject | undefined>;
  /**
   * During the host's call `callId`, the upstream asked what the host did not declare a capability for, and
   * nobody else could answer it: the host's call ends with -32021 naming the capability (the upstream is
   * still answered, and its call cancelled).
   */
  hostLacks(callId: JsonRpcId, method: string, params: JsonObject): void;
}

interface InitInfo {
  protocolVersion: string;
  capabilities: JsonObject;
  clientInfo: JsonObject;
}

/** A tool call a composite's step makes: on the composite's stream, with the step's timeout, stopped with the step. */
interface StepCall {
  streamId: JsonRpcId;
  timeoutMs: number;
  signal: AbortSignal;
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
  #init: InitInfo | undefined;
  #initialized = false;
  #closed = false;
  #links: UpstreamLink[] = [];
  #catalog: Catalog | undefined;
  /** What upstreams ask this host: recorded, put to it or an operator, its answers relayed. */
  #relay: QuestionRelay;
  #subscriptions = new Set<string>();
  /** Input schemas of the merged tools as last listed (for Mcp-Param-* headers). */
  #toolSchemas = new Map<string, JsonObject>();
  #logLevel: string | undefined;
  /** Whether this host takes tasks (2025-11-25, declared): else task-only tools are hidden and `task` is stripped. */
  #takesTasks = false;
  /** The tasks this host created, under host task ids of this session's own. */
  #tasks = new HostTasks();

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
  }

  get protocolVersion(): string | undefined {
    return this.#init?.protocolVersion;
  }

  /**
   * Parameters for initializing an upstream on this host's behalf: its revision, its identity, and the
   * capabilities it declared that the gateway can translate, plus what an operator can answer when the
   * upstream's questions may go to one.
   */
  initParamsFor(upstream: string): InitInfo | undefined {
    if (!this.#init) return undefined;
    const declared = upstreamClientCapabilities(this.#init.capabilities, this.#init.protocolVersion);
    const { broker, policy } = this.#env.questions;
    const operator = broker.operatorAvailable && policy.operatorMayAnswer(upstream);
    return {
      protocolVersion: this.#init.protocolVersion,
      capabilities: operator ? withOperatorCapabilities(declared, this.#init.protocolVersion, policy) : declared,
      clientInfo: this.#init.clientInfo,
    };
  }

  /**
   * The `_meta` envelope of this host's requests to a 2026-07-28 upstream: the capabilities an upstream is
   * told in initialize (the host's relayable ones, plus an operator's), in 2026 form; the host's client
   * info when it is a proper one; its log level when it set one.
   */
  envelopeFor(upstream: string): RequestEnvelope {
    const init = this.initParamsFor(upstream);
    const info = init?.clientInfo;
    return upstreamEnvelope({
      hostCapabilities: init?.capabilities ?? {},
      hostRevision: init?.protocolVersion ?? LATEST_LEGACY_REVISION,
      ...(info && typeof info.name === 'string' && typeof info.version === 'string' ? { clientInfo: { ...info, name: info.name, version: info.version } } : {}),
      ...(isLogLevel(this.#logLevel) ? { logLevel: this.#logLevel } : {}),
    });
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
  openStateless(init: InitInfo & { logLevel?: string }): void {
    if (this.#init) throw new GatewayError('GW_ERR_ALREADY_INITIALIZED', 'Session already initialized');
    this.#initialize({ protocolVersion: init.protocolVersion, capabilities: init.capabilities, clientInfo: init.clientInfo });
    this.#initialized = true;
    this.#logLevel = init.logLevel;
  }

  /**
   * The input schema of a tool as the host names it (undefined for an unknown tool): as last listed, else
   * from a fresh list (a 2026-07-28 upstream's list is not cached when its ttlMs is 0).
   */
  async toolInputSchema(name: unknown): Promise<JsonObject | undefined> {
    if (typeof name !== 'string') return undefined;
    if (!this.#toolSchemas.has(name)) this.#noteToolSchemas(await this.#requireCatalog().list('tools'));
    return this.#toolSchemas.get(name);
  }

  #noteToolSchemas(tools: JsonObject[]): void {
    this.#toolSchemas.clear();
    for (const tool of tools) {
      const schema = inputSchemaOf(tool);
      if (typeof tool.name === 'string' && schema) this.#toolSchemas.set(tool.name, schema);
    }
  }

  /**
   * Where a tools/call, prompts/get or resources/read goes: the upstream's configured name, and for a tool
   * the name the upstream knows it by (what per-tool settings are keyed by). Throws as the call would.
   */
  async upstreamOf(method: string, params: JsonObject): Promise<{ upstream: string; tool?: string }> {
    const catalog = this.#requireCatalog();
    // A composite runs in the gateway: its questions (and a 2026-07-28 host's handles) belong to `composite`.
    if (method === 'tools/call' && this.#env.composites?.has(params.name)) return { upstream: 'composite', tool: params.name };
    if (method === 'tools/call') {
      const route = await catalog.routeNamed('tools', params.name);
      return { upstream: route.link.spec.name, tool: route.name };
    }
    if (method === 'prompts/get') return { upstream: (await catalog.routeNamed('prompts', params.name)).link.spec.name };
    if (method === 'resources/read') return { upstream: (await catalog.routeResource(params.uri)).link.spec.name };
    throw new GatewayError('GW_ERR_INVALID_PARAMS', `Invalid params: ${method} takes no requestState`);
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
    const calls = this.#env.calls.ofHost(this);
    for (const call of [...calls.filter((c) => c.kind === 'composite'), ...calls.filter((c) => c.kind !== 'composite')]) {
      this.#stopCall(call, 'session-closed', 'the host session closed');
    }
    this.#relay.closeAll('the host session closed');
    await Promise.all(this.#links.map((link) => (link.spec.sharing === 'per-session' ? link.close() : Promise.resolve())));
    this.#env.onClosed(this);
  }

  // ---- from the upstreams -------------------------------------------------------------------------

  /**
   * Takes a question an upstream asked during (or outside) one of this host's calls: the broker records it
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
        checkCallArguments('tools/call', params);
        if (this.#env.composites?.has(params.name)) return this.#runComposite(request, params.name as string);
        return this.#call(request, await this.#toolRoute(params.name), 'name');
      case 'prompts/get':
        checkCallArguments('prompts/get', params);
        return this.#call(request, await this.#requireCatalog().routeNamed('prompts', params.name), 'name');
      case 'resources/read':
        return this.#call(request, await this.#requireCatalog().routeResource(params.uri), 'uri');
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const route = await this.#requireCatalog().routeResource(params.uri);
        const result = await this.#call(request, route, 'uri');
        if (request.method === 'resources/subscribe') this.#subscriptions.add(route.name);
        else this.#subscriptions.delete(route.name);
        return result;
      }
      case 'completion/complete':
        return this.#complete(request);
      case 'logging/setLevel':
        return this.#setLevel(params);
      case 'tasks/get':
      case 'tasks/result':
      case 'tasks/cancel':
        if (this.#takesTasks) return this.#taskRequest(request, params);
        break;
      case 'tasks/list':
        if (this.#takesTasks) return this.#listTasks(params);
        break;
    }
    throw new GatewayError('GW_ERR_METHOD_NOT_FOUND', `Method not found: ${request.method}`);
  }

  /** The route of a tool the host named; a task-only tool is unknown to a host that takes no tasks (it is not listed). */
  async #toolRoute(name: unknown): Promise<Route> {
    const route = await this.#requireCatalog().routeNamed('tools', name);
    if (!this.#takesTasks && route.item && isTaskOnlyTool(route.item)) throw new GatewayError('GW_ERR_UNKNOWN_TOOL', `Unknown tool: ${String(name)}`);
    return route;
  }

  /**
   * tasks/get, tasks/result, tasks/cancel of one of this host's tasks: to the upstream session that runs it, under
   * the upstream's id; the answer names the task as the host knows it. tasks/result waits as long as the task runs
   * (no request timeout: the host can cancel it).
   */
  async #taskRequest(request: JsonRpcRequest, params: JsonObject): Promise<JsonObject> {
    const route = this.#tasks.route(params.taskId);
    const hostId = route.hostId;
    const upstreamParams = { ...params, taskId: route.taskId };
    let result: JsonObject;
    try {
      result = await this.#forwardOnce(request, route.upstream, upstreamParams, undefined, request.method === 'tasks/result' ? 0 : undefined);
    } catch (error) {
      if (error instanceof TransportError) {
        throw new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${route.upstream.spec.name}' is unavailable: ${error.message}`, { cause: error });
      }
      throw error;
    }
    if (request.method === 'tasks/result') return relatedTaskId(result) === undefined ? result : withRelatedTaskId(result, hostId);
    return { ...result, taskId: hostId };
  }

  /** tasks/list: this host's tasks on every upstream that lists tasks, under the host's ids, paginated by the gateway. */
  async #listTasks(params: JsonObject): Promise<JsonObject> {
    const tasks: JsonObject[] = [];
    for (const upstream of this.#tasks.upstreams()) {
      const offered = upstream.serverCapabilities.tasks;
      if (!isObject(offered) || !isObject(offered.list)) continue;
      try {
        const listed = await listUpstreamTasks(upstream);
        for (const task of listed.tasks) {
          const shown = this.#tasks.taskToHost(upstream, task);
          if (shown) tasks.push(shown);
        }
        if (listed.complete) this.#tasks.keepOnly(upstream, new Set(listed.tasks.map((task) => String(task.taskId))));
      } catch (error) {
        this.#env.logger.log('warn', `skipping upstream '${upstream.spec.name}' in tasks/list`, { session: this.id, error: String(error) });
      }
    }
    const page = paginate(tasks, params.cursor, this.#env.pageSize);
    return { tasks: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
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
    let items = await this.#requireCatalog().list(kind);
    const composites = this.#env.composites;
    if (kind === 'tools' && composites && composites.size > 0) {
      // A composite shadows an upstream tool of the same name (a warning at start says so).
      const own = await composites.entries((upstream) => this.#upstreamTools(upstream));
      const names = new Set(own.map((tool) => tool.name));
      items = [...items.filter((tool) => !names.has(tool.name)), ...own];
    }
    // A host that takes no tasks could never call a task-only tool.
    if (kind === 'tools' && !this.#takesTasks) items = items.filter((tool) => !isTaskOnlyTool(tool));
    if (kind === 'tools') this.#noteToolSchemas(items);
    const page = paginate(items, params.cursor, this.#env.pageSize);
    const result: JsonObject = { [kind]: page.items };
    if (page.nextCursor) result.nextCursor = page.nextCursor;
    return result;
  }

  async #complete(request: JsonRpcRequest): Promise<JsonObject> {
    const params = request.params ?? {};
    const problem = completeParamsProblem(params);
    if (problem !== undefined) throw new GatewayError('GW_ERR_INVALID_PARAMS', `Invalid params: ${problem}`);
    const ref = isObject(params.ref) ? params.ref : {};
    if (ref.type === 'ref/prompt') {
      const route = await this.#requireCatalog().routeNamed('prompts', ref.name);
      return (await this.#forward(request, route.link, { ...params, ref: { ...ref, name: route.name } })) ?? {};
    }
    if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      const route = await this.#requireCatalog().route('resourceTemplates', ref.uri);
      if (route) return (await this.#forward(request, route.link, params)) ?? {};
      return this.#call(request, await this.#requireCatalog().routeResource(ref.uri), 'none').then((r) => r ?? {});
    }
    throw new GatewayError('GW_ERR_INVALID_PARAMS', 'Invalid params: ref must be a ref/prompt or ref/resource');
  }

  async #setLevel(params: JsonObject): Promise<JsonObject> {
    if (typeof params.level !== 'string') throw new GatewayError('GW_ERR_INVALID_PARAMS', 'Invalid params: level must be a string');
    this.#logLevel = params.level;
    await Promise.all(
      this.#links
        .filter((link) => link.spec.sharing === 'per-session')
        .map(async (link) => {
          const session = link.current();
          // A 2026-07-28 upstream has no logging/setLevel: the level travels in each request's envelope.
          if (!session || session.era === 'modern' || !isObject(session.serverCapabilities.logging)) return;
          await session.request('logging/setLevel', { level: params.level }).catch((error: unknown) => {
            this.#env.logger.log('warn', `logging/setLevel failed on upstream '${link.spec.name}'`, { error: String(error) });
          });
        }),
    );
    return {};
  }

  #call(request: JsonRpcRequest, route: Route, field: 'name' | 'uri' | 'none'): Promise<JsonObject | undefined> {
    const params = request.params ?? {};
    const out = field === 'none' ? params : { ...params, [field]: route.name };
    return this.#forward(request, route.link, out);
  }

  /**
   * Sends a host request to an upstream, with progress relayed back. One retry on a new upstream session
   * when the upstream forgot ours or its era changed (the new session detects the era again).
   */
  async #forward(request: JsonRpcRequest, link: UpstreamLink, params: JsonObject, step?: StepCall): Promise<JsonObject | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      const session = await link.get();
      try {
        return await this.#forwardOnce(request, session, params, step);
      } catch (error) {
        const changed = attempt === 0 ? eraChangeOf(session.era, error) : undefined;
        if (changed !== undefined) {
          this.#env.logger.log('info', `upstream '${link.spec.name}' ${changed}; opening a new session`, { session: this.id });
          link.discard(session, { redetect: true });
          continue;
        }
        if (error instanceof TransportError) {
          throw new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${link.spec.name}' is unavailable: ${error.message}`, { cause: error });
        }
        throw error;
      }
    }
  }

  async #forwardOnce(request: JsonRpcRequest, session: UpstreamSession, params: JsonObject, step?: StepCall, requestTimeoutMs?: number): Promise<JsonObject> {
    // A composite's step is the host's call as far as the upstream's questions go: they travel on the composite's stream.
    const streamId = step?.streamId ?? request.id;
    const meta = isObject(params._meta) ? params._meta : undefined;
    const hostToken = meta?.progressToken;
    let outParams = params;
    if (meta && hostToken !== undefined) {
      const { progressToken: _token, ...rest } = meta;
      outParams = { ...params, _meta: rest };
      if (Object.keys(rest).length === 0) delete outParams._meta;
    }
    // A tool call runs as a task only when this host takes tasks and the upstream runs them; else as a plain call.
    const asTask = request.method === 'tools/call' && 'task' in params && this.#takesTasks && session.era === 'legacy' && upstreamRunsToolTasks(session.serverCapabilities);
    if (request.method === 'tools/call' && !asTask) outParams = withoutTaskParam(outParams);
    const tool = request.method === 'tools/call' && typeof request.params?.name === 'string' && typeof params.name === 'string'
      ? { host: request.params.name, upstream: params.name }
      : undefined;
    const envelope = session.era === 'modern' ? this.envelopeFor(session.spec.name) : undefined;
    // A 2026-07-28 upstream over HTTP gets the arguments its tool marks x-mcp-header as Mcp-Param-* headers too.
    const overHttp = session.spec.kind === 'streamable-http';
    const paramHeaders = envelope && tool && overHttp ? paramHeadersFor(await this.toolInputSchema(tool.host), params.arguments) : undefined;
    const options = (timeoutMs?: number): CallOptions => ({
      wantsProgress: hostToken !== undefined,
      onProgress:
        hostToken === undefined
          ? undefined
          : (progress) => this.forward(notification('notifications/progress', { ...progress, progressToken: hostToken }), call.streamId),
      onId: (upstreamId) => this.#env.calls.bind(call, session, upstreamId),
      onErrorResponse: (error) => this.#noteUrlElicitationsRequired(session, error),
      // The task is known before the upstream's first status notification of it is handled.
      ...(asTask ? { onResult: (result: JsonObject) => this.#tasks.createdToHost(session, result) } : {}),
      ...(envelope ? { envelope } : {}),
      ...(paramHeaders && Object.keys(paramHeaders).length > 0 ? { headers: paramHeaders } : {}),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    const call = this.#env.calls.open({ host: this, requestId: request.id, streamId, ...(tool ? { tool } : {}) });
    const sentAt = performance.now();
    const stop = () => this.#stopCall(call, 'step-stopped', 'the composite step was stopped');
    step?.signal.addEventListener('abort', stop, { once: true });
    try {
      const result = await session.request(request.method, outParams, options(step?.timeoutMs ?? requestTimeoutMs));
      if (session.era === 'legacy') return asTask ? this.#tasks.createdToHost(session, result) : result;
      if (result.resultType === 'input_required' && this.#env.modern && this.#init) {
        const relayed = await this.#env.modern.relayInputRequired({
          upstream: session.spec.name,
          tool: tool?.upstream,
          hostTool: tool?.host,
          method: request.method,
          hostParams: request.params ?? {},
          result,
          hostCapabilities: this.#init.capabilities,
          hostSessionId: this.id,
        });
        if (relayed) return relayed;
      }
      // Pair 3 of the era bridge: the gateway asks each round's questions the usual way and retries (input-call.ts).
      const complete = result.resultType === 'input_required'
        ? await carryInputRequired({
          request,
          session,
          params: outParams,
          first: result,
          spentMs: performance.now() - sentAt,
          options,
          signal: call.abort.signal,
          deliver: (question) => this.deliverQuestion(session, question, { callId: call.upstreamId, relatedRequestId: streamId, pause: [] }),
          logger: this.#env.logger,
          hostSessionId: this.id,
        })
        : result;
      // Every host is a legacy one: the 2026-only result fields go.
      return withoutModernResultFields(complete);
    } finally {
      step?.signal.removeEventListener('abort', stop);
      this.#env.calls.end(call, 'finished');
    }
  }

  /** An upstream's own tool list (what a composite calls), as that upstream names them. */
  async #upstreamTools(upstream: string): Promise<JsonObject[]> {
    const link = this.#links.find((candidate) => candidate.spec.name === upstream);
    return link ? fetchAll(await link.get(), 'tools') : [];
  }

  /** A composite tool's call: the composer runs it; its steps' tool calls go out like the host's own, on its stream. */
  async #runComposite(request: JsonRpcRequest, name: string): Promise<JsonObject> {
    const composites = this.#env.composites as CompositeTools;
    const call = this.#env.calls.open({ host: this, requestId: request.id, kind: 'composite' });
    const meta = request.params?._meta;
    const token = isObject(meta) ? meta.progressToken : undefined;
    let calls = 0;
    // One call of a step, forwarded like the host's own under an id of its own, on the composite's stream.
    const stepCall = async (upstream: string, method: string, params: JsonObject, options: { signal: AbortSignal; timeoutMs: number; stepId: string }) => {
      const link = this.#links.find((candidate) => candidate.spec.name === upstream);
      if (!link) throw new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${upstream}' is not configured`);
      calls += 1;
      const step: JsonRpcRequest = { jsonrpc: '2.0', id: `${String(request.id)}#${options.stepId}#${calls}`, method, params };
      return (await this.#forward(step, link, params, { streamId: request.id, timeoutMs: options.timeoutMs, signal: options.signal })) ?? {};
    };
    try {
      return await composites.run(name, request, {
        hostSessionId: this.id,
        signal: call.abort.signal,
        desk: this,
        callTool: (upstream, tool, args, options) => stepCall(upstream, 'tools/call', { name: tool, arguments: args }, options),
        readResource: (upstream, uri, options) => stepCall(upstream, 'resources/read', { uri }, options),
        ...(token === undefined
          ? {}
          : { progress: (progress: number, total: number, message: string) => this.forward(notification('notifications/progress', { progressToken: token, progress, total, message }), request.id) }),
      });
    } finally {
      this.#env.calls.end(call, 'finished');
    }
  }

  /** Stops a call (the registry says what that takes): its upstream is told, and the questions it asked are void. */
  #stopCall(call: Call<GatewayHostSession, UpstreamSession> | undefined, why: CallEnd, reason: string): void {
    const ended = call === undefined ? undefined : this.#env.calls.end(call, why, reason);
    const upstream = ended?.call.upstream;
    const upstreamId = ended?.call.upstreamId;
    if (!ended?.tellUpstream || upstream === undefined || upstreamId === undefined) return;
    upstream.cancel(upstreamId, reason);
    if (ended.settleQuestions) this.#relay.settleCall(upstream, upstreamId);
  }

  #onNotification(message: JsonRpcNotification): void {
    const params = message.params ?? {};
    switch (message.method) {
      case 'notifications/initialized':
        this.#initialized = true;
        return;
      case 'notifications/cancelled': {
        const reason = typeof params.reason === 'string' ? params.reason : 'cancelled by the host';
        this.#stopCall(this.#env.calls.get(this, params.requestId as JsonRpcId), 'host-cancelled', reason);
        return;
      }
      case 'notifications/progress': {
        this.#relay.relayProgress(params);
        return;
      }
      case 'notifications/roots/list_changed':
        for (const link of this.#links) {
          const session = link.current();
          // 2026-07-28 has no such notification: a modern upstream asks for roots each time it needs them.
          if (link.spec.sharing !== 'per-session' || session?.era === 'modern') continue;
          void session?.notify('notifications/roots/list_changed').catch(() => undefined);
        }
        return;
      default:
        this.#env.logger.log('debug', `ignoring host notification ${message.method}`, { session: this.id });
    }
  }

  /**
   * An upstream answered one of this host's requests with -32042 (URL elicitation required): the error
   * goes to the host unchanged, and the elicitations it names are recorded for their completion, if this
   * host can take it (2025-11-25 and `elicitation.url`).
   */
  #noteUrlElicitationsRequired(upstream: UpstreamSession, error: JsonRpcErrorObject): void {
    // The call ends with this error, so its completion can only go outside any call.
    for (const id of requiredUrlElicitationIds(error, this.#init)) this.#env.urlElicitations.register(upstream.key, id, this);
  }

  #requireCatalog(): Catalog {
    if (!this.#catalog) throw new GatewayError('GW_ERR_NOT_INITIALIZED', 'Session not initialized: send initialize first');
    return this.#catalog;
  }
}

/** Refuses (-32602) `arguments` of the wrong shape before the request is routed: the upstream would only answer with its own validation dump. */
function checkCallArguments(method: 'tools/call' | 'prompts/get', params: JsonObject): void {
  const problem = callArgumentsProblem(method, params);
  if (problem !== undefined) throw new GatewayError('GW_ERR_INVALID_PARAMS', `Invalid params: ${problem}`);
}
