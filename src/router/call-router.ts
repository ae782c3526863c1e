/**
 * @module The calls of one host session, routed: each tools/call, prompts/get, resources/read, subscription and
 * completion to its upstream (retried once on an era change or a forgotten session), a composite run by the
 * composer, the host's progress tokens, tasks, envelope and Mcp-Param headers carried, every call opened and ended
 * in the call registry, and an upstream's input_required answered (relayed to a 2026-07-28 host, or carried).
 */

import { ANONYMOUS, ANONYMOUS_ISSUER, describePrincipal } from '../access/principal.js';
import { callArgumentsProblem } from '../protocol/call-arguments.js';
import { upstreamClientCapabilities } from '../protocol/capabilities.js';
import { completeParamsProblem } from '../protocol/complete-params.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { isObject, notification } from '../protocol/jsonrpc.js';
import { isLogLevel } from '../protocol/meta-keys.js';
import { inputSchemaOf, paramHeadersFor } from '../protocol/param-headers.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import { upstreamEnvelope } from '../protocol/request-envelope.js';
import { withoutModernResultFields } from '../protocol/result-type.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import { isTaskOnlyTool, upstreamRunsToolTasks, withoutTaskParam } from '../protocol/tasks.js';
import { withOperatorCapabilities } from '../questions/route-policy.js';
import { eraChangeOf } from '../upstream/era-probe.js';
import type { UpstreamLink } from '../upstream/link.js';
import { carryInputRequired } from '../upstream/rounds/input-call.js';
import type { CallOptions, UpstreamSession } from '../upstream/session.js';
import { TransportError } from '../upstream/transport/transport.js';
import type { CallRouterEnv, HostInit, RoutedHost } from './call-host.js';
import type { Call, CallEnd } from './calls.js';
import type { Route } from './catalog/catalog.js';
import type { CompositeTools } from './composites/composite-tools.js';
import { requiredUrlElicitationIds } from './url-elicitations.js';

/** A tool call a composite's step makes: on the composite's stream, with the step's timeout, stopped with the step. */
export interface StepCall {
  streamId: JsonRpcRequest['id'];
  timeoutMs: number;
  signal: AbortSignal;
}

/** A transport failure of an upstream is the host's GW_ERR_UPSTREAM_UNAVAILABLE; any other error stays as it is. */
export function unavailableError(upstream: string, error: unknown): unknown {
  if (!(error instanceof TransportError)) return error;
  return new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${upstream}' is unavailable: ${error.message}`, { cause: error });
}

export class CallRouter<H extends RoutedHost> {
  #host: H;
  #env: CallRouterEnv<H>;
  /** Input schemas of the merged tools as last listed (for Mcp-Param-* headers). */
  #toolSchemas = new Map<string, JsonObject>();

  constructor(host: H, env: CallRouterEnv<H>) {
    this.#host = host;
    this.#env = env;
  }

  /**
   * Parameters for initializing an upstream on this host's behalf: its revision, its identity, and the
   * capabilities it declared that the gateway can translate, plus what an operator can answer when the
   * upstream's questions may go to one.
   */
  initParamsFor(upstream: string): HostInit | undefined {
    const init = this.#host.profile;
    if (!init) return undefined;
    const declared = upstreamClientCapabilities(init.capabilities, init.protocolVersion);
    const { desk, policy } = this.#env.questions;
    const operator = desk.operatorAvailable && policy.operatorMayAnswer(upstream);
    return {
      protocolVersion: init.protocolVersion,
      capabilities: operator ? withOperatorCapabilities(declared, init.protocolVersion, policy) : declared,
      clientInfo: init.clientInfo,
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
    const logLevel = this.#host.logLevel;
    return upstreamEnvelope({
      hostCapabilities: init?.capabilities ?? {},
      hostRevision: init?.protocolVersion ?? LATEST_LEGACY_REVISION,
      ...(info && typeof info.name === 'string' && typeof info.version === 'string' ? { clientInfo: { ...info, name: info.name, version: info.version } } : {}),
      ...(isLogLevel(logLevel) ? { logLevel } : {}),
    });
  }

  /**
   * The input schema of a tool as the host names it (undefined for an unknown tool): as last listed, else
   * from a fresh list (a 2026-07-28 upstream's list is not cached when its ttlMs is 0).
   */
  async toolInputSchema(name: unknown): Promise<JsonObject | undefined> {
    if (typeof name !== 'string') return undefined;
    if (!this.#toolSchemas.has(name)) this.#noteToolSchemas(await this.#host.catalog().list('tools'));
    return this.#toolSchemas.get(name);
  }

  /** The input schema of a tool as last listed to this host (no fetch): what redacts its arguments for an operator. */
  knownToolSchema(name: string): JsonObject | undefined {
    return this.#toolSchemas.get(name);
  }

  /** The merged tools as the host was last shown them: their input schemas are kept for Mcp-Param-* headers. */
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
    const catalog = this.#host.catalog();
    this.checkAccess(method, params);
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

  /**
   * A host's tools/call, prompts/get, resources/read or completion/complete, to its upstream (a composite tool is
   * run by the composer). `arguments` of the wrong shape are refused (-32602) before the request is routed: the
   * upstream would only answer with its own validation dump.
   */
  async route(request: JsonRpcRequest): Promise<JsonObject | undefined> {
    const params = request.params ?? {};
    this.checkAccess(request.method, params);
    switch (request.method) {
      case 'tools/call':
        checkCallArguments('tools/call', params);
        if (this.#env.composites?.has(params.name)) return this.#runComposite(request, params.name as string);
        return this.call(request, await this.#toolRoute(params.name), 'name');
      case 'prompts/get':
        checkCallArguments('prompts/get', params);
        return this.call(request, await this.#host.catalog().routeNamed('prompts', params.name), 'name');
      case 'resources/read':
        return this.call(request, await this.#host.catalog().routeResource(params.uri), 'uri');
      case 'completion/complete':
        return this.#complete(request);
    }
    throw new GatewayError('GW_ERR_METHOD_NOT_FOUND', `Method not found: ${request.method}`);
  }

  /**
   * Refuses (GW_ERR_FORBIDDEN, audited) what the access policy does not let this host's principal use, by the name the
   * host sent: before the request is routed, so nothing reaches an upstream, and the same for every era.
   */
  checkAccess(method: string, params: JsonObject): void {
    this.#env.access?.checkRequest(this.#host.profile?.principal ?? ANONYMOUS, method, params, this.#host.id);
  }

  /** Forwards a host request along its route, the named field (`name` or `uri`) renamed as its upstream knows it. */
  call(request: JsonRpcRequest, route: Route, field: 'name' | 'uri' | 'none'): Promise<JsonObject | undefined> {
    const params = request.params ?? {};
    const out = field === 'none' ? params : { ...params, [field]: route.name };
    return this.#forward(request, route.link, out);
  }

  /** completion/complete: to the upstream of the prompt or resource (template) its ref names. */
  async #complete(request: JsonRpcRequest): Promise<JsonObject> {
    const params = request.params ?? {};
    const problem = completeParamsProblem(params);
    if (problem !== undefined) throw new GatewayError('GW_ERR_INVALID_PARAMS', `Invalid params: ${problem}`);
    const ref = isObject(params.ref) ? params.ref : {};
    if (ref.type === 'ref/prompt') {
      const route = await this.#host.catalog().routeNamed('prompts', ref.name);
      return (await this.#forward(request, route.link, { ...params, ref: { ...ref, name: route.name } })) ?? {};
    }
    if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      const route = await this.#host.catalog().route('resourceTemplates', ref.uri);
      if (route) return (await this.#forward(request, route.link, params)) ?? {};
      return this.call(request, await this.#host.catalog().routeResource(ref.uri), 'none').then((r) => r ?? {});
    }
    throw new GatewayError('GW_ERR_INVALID_PARAMS', 'Invalid params: ref must be a ref/prompt or ref/resource');
  }

  /**
   * The merged tools as this host is shown them: the composites after the upstreams' tools (a composite shadows
   * an upstream tool of the same name; a warning at start says so), task-only tools hidden from a host that takes
   * no tasks (it could never call them); their input schemas are kept for Mcp-Param-* headers.
   */
  async hostTools(listed: JsonObject[]): Promise<JsonObject[]> {
    let items = listed;
    const composites = this.#env.composites;
    if (composites && composites.size > 0) {
      const own = await composites.entries((upstream) => this.#upstreamTools(upstream));
      const names = new Set(own.map((tool) => tool.name));
      items = [...items.filter((tool) => !names.has(tool.name)), ...own];
    }
    if (!this.#host.takesTasks()) items = items.filter((tool) => !isTaskOnlyTool(tool));
    this.#noteToolSchemas(items);
    return items;
  }

  /** An upstream's own tool list (what a composite calls), as that upstream names them. */
  async #upstreamTools(upstream: string): Promise<JsonObject[]> {
    const link = this.#host.links.find((candidate) => candidate.spec.name === upstream);
    return link ? link.list('tools') : [];
  }

  /** Stops a call (the registry says what that takes): its upstream is told, and the questions it asked are void. */
  stopCall(call: Call<H, UpstreamSession> | undefined, why: CallEnd, reason: string): void {
    const ended = call === undefined ? undefined : this.#env.calls.end(call, why, reason);
    const upstream = ended?.call.upstream;
    const upstreamId = ended?.call.upstreamId;
    if (!ended?.tellUpstream || upstream === undefined || upstreamId === undefined) return;
    upstream.cancel(upstreamId, reason);
    if (ended.settleQuestions) this.#host.settleQuestions(upstream, upstreamId);
  }

  /** The host session closes: composites first (each stops its steps' calls and their questions), then the rest. */
  stopAll(reason: string): void {
    const calls = this.#env.calls.ofHost(this.#host);
    for (const call of [...calls.filter((c) => c.kind === 'composite'), ...calls.filter((c) => c.kind !== 'composite')]) {
      this.stopCall(call, 'session-closed', reason);
    }
  }

  /** The route of a tool the host named; a task-only tool is unknown to a host that takes no tasks (it is not listed). */
  async #toolRoute(name: unknown): Promise<Route> {
    const route = await this.#host.catalog().routeNamed('tools', name);
    if (route.taskOnly && !this.#host.takesTasks()) throw new GatewayError('GW_ERR_UNKNOWN_TOOL', `Unknown tool: ${String(name)}`);
    return route;
  }

  /**
   * Sends a host request to an upstream, with progress relayed back. One retry on a new upstream session
   * when the upstream forgot ours or its era changed (the new session detects the era again).
   */
  async #forward(request: JsonRpcRequest, link: UpstreamLink, params: JsonObject, step?: StepCall): Promise<JsonObject | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      const { session, release } = await link.forCall();
      try {
        return await this.forwardOnce(request, session, params, step);
      } catch (error) {
        const changed = attempt === 0 ? eraChangeOf(session.era, error) : undefined;
        if (changed !== undefined) {
          this.#env.logger.log('info', `upstream '${link.spec.name}' ${changed}; opening a new session`, { session: this.#host.id });
          link.discard(session, { redetect: true });
          continue;
        }
        throw unavailableError(link.spec.name, error);
      } finally {
        release();
      }
    }
  }

  /**
   * Sends a host request to one upstream session (no retry): its progress token mapped, its `task` param kept
   * only where it runs as a task, the envelope and Mcp-Param headers of a 2026-07-28 upstream, the call kept in
   * the registry while it runs, and an `input_required` answer relayed or carried. `requestTimeoutMs` 0: no timeout.
   */
  async forwardOnce(request: JsonRpcRequest, session: UpstreamSession, params: JsonObject, step?: StepCall, requestTimeoutMs?: number): Promise<JsonObject> {
    const host = this.#host;
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
    const asTask = request.method === 'tools/call' && 'task' in params && host.takesTasks() && session.era === 'legacy' && upstreamRunsToolTasks(session.serverCapabilities);
    if (request.method === 'tools/call' && !asTask) outParams = withoutTaskParam(outParams);
    const tool = request.method === 'tools/call' && typeof request.params?.name === 'string' && typeof params.name === 'string'
      ? { host: request.params.name, upstream: params.name, ...(isObject(params.arguments) ? { arguments: params.arguments } : {}) }
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
          : (progress) => host.forward(notification('notifications/progress', { ...progress, progressToken: hostToken }), call.streamId),
      onId: (upstreamId) => this.#env.calls.bind(call, session, upstreamId),
      onErrorResponse: (error) => this.#noteUrlElicitationsRequired(session, error),
      // The task is known before the upstream's first status notification of it is handled.
      ...(asTask ? { onResult: (result: JsonObject) => host.taskCreated(session, result) } : {}),
      ...(envelope ? { envelope } : {}),
      ...(paramHeaders && Object.keys(paramHeaders).length > 0 ? { headers: paramHeaders } : {}),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    const call = this.#env.calls.open({ host: host, requestId: request.id, streamId, ...(tool ? { tool } : {}) });
    const sentAt = performance.now();
    const stop = () => this.stopCall(call, 'step-stopped', 'the composite step was stopped');
    step?.signal.addEventListener('abort', stop, { once: true });
    try {
      const result = await session.request(request.method, outParams, options(step?.timeoutMs ?? requestTimeoutMs));
      if (session.era === 'legacy') return asTask ? host.taskCreated(session, result) : result;
      const init = host.profile;
      if (result.resultType === 'input_required' && host.port.takeRound && init) {
        const relayed = await host.port.takeRound({
          upstream: session.spec.name,
          tool: tool?.upstream,
          hostTool: tool?.host,
          method: request.method,
          hostParams: request.params ?? {},
          result,
          hostCapabilities: init.capabilities,
          hostSessionId: host.id,
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
          deliver: (question) => host.deliverQuestion(session, question, { callId: call.upstreamId, relatedRequestId: streamId, pause: [] }),
          logger: this.#env.logger,
          hostSessionId: host.id,
        })
        : result;
      // The 2026-only result fields go: the host adapter gives its host the fields its revision has.
      return withoutModernResultFields(complete);
    } finally {
      step?.signal.removeEventListener('abort', stop);
      this.#env.calls.end(call, 'finished');
    }
  }

  /** A composite tool's call: the composer runs it; its steps' tool calls go out like the host's own, on its stream. */
  async #runComposite(request: JsonRpcRequest, name: string): Promise<JsonObject> {
    const host = this.#host;
    const composites = this.#env.composites as CompositeTools;
    const call = this.#env.calls.open({ host: host, requestId: request.id, kind: 'composite' });
    const meta = request.params?._meta;
    const token = isObject(meta) ? meta.progressToken : undefined;
    let calls = 0;
    // One call of a step, forwarded like the host's own under an id of its own, on the composite's stream.
    const stepCall = async (upstream: string, method: string, params: JsonObject, options: { signal: AbortSignal; timeoutMs: number; stepId: string }) => {
      const link = host.links.find((candidate) => candidate.spec.name === upstream);
      if (!link) throw new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${upstream}' is not configured`);
      calls += 1;
      const step: JsonRpcRequest = { jsonrpc: '2.0', id: `${String(request.id)}#${options.stepId}#${calls}`, method, params };
      return (await this.#forward(step, link, params, { streamId: request.id, timeoutMs: options.timeoutMs, signal: options.signal })) ?? {};
    };
    try {
      const principal = host.profile?.principal;
      return await composites.run(name, request, {
        hostSessionId: host.id,
        ...(principal && principal.issuer !== ANONYMOUS_ISSUER ? { principal: describePrincipal(principal) } : {}),
        signal: call.abort.signal,
        desk: host,
        callTool: (upstream, tool, args, options) => stepCall(upstream, 'tools/call', { name: tool, arguments: args }, options),
        readResource: (upstream, uri, options) => stepCall(upstream, 'resources/read', { uri }, options),
        ...(token === undefined
          ? {}
          : { progress: (progress: number, total: number, message: string) => host.forward(notification('notifications/progress', { progressToken: token, progress, total, message }), request.id) }),
      });
    } finally {
      this.#env.calls.end(call, 'finished');
    }
  }

  /**
   * An upstream answered one of this host's requests with -32042 (URL elicitation required): the error
   * goes to the host unchanged, and the elicitations it names are recorded for their completion, if this
   * host can take it (2025-11-25 and `elicitation.url`).
   */
  #noteUrlElicitationsRequired(upstream: UpstreamSession, error: JsonRpcErrorObject): void {
    // The call ends with this error, so its completion can only go outside any call.
    for (const id of requiredUrlElicitationIds(error, this.#host.profile)) this.#env.urlElicitations.register(upstream.key, id, this.#host);
  }
}

/** Refuses (-32602) `arguments` of the wrong shape. */
function checkCallArguments(method: 'tools/call' | 'prompts/get', params: JsonObject): void {
  const problem = callArgumentsProblem(method, params);
  if (problem !== undefined) throw new GatewayError('GW_ERR_INVALID_PARAMS', `Invalid params: ${problem}`);
}

