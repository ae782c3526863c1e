/**
 * @module One legacy (sessionful) host session: answers initialize and ping, keeps the log level, subscriptions and
 * tasks, and hands every other request to its RoutedSession (router/routed-session.ts), which reaches this host
 * through a RequestPort: questions as server-to-client requests on the stream of the call they belong to.
 */

import { traceHostRequest } from '../../router/request-span.js';
import { boundedClientInfo } from '../../protocol/client-info.js';
import { RpcCode } from '../../protocol/errors.js';
import type { JsonObject, JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { errorResponse, isObject, resultResponse } from '../../protocol/jsonrpc.js';
import { negotiateRevision } from '../../protocol/revisions.js';
import { hostTakesTasks } from '../../protocol/tasks.js';
import type { HostChannel, HostSession, Verdict } from '../../ports/host-contracts.js';
import { GatewayError, toProtocolError } from '../../protocol/gateway-errors.js';
import type { HostInit } from '../../router/call-host.js';
import type { RoutedSessionEnv } from '../../router/routed-session.js';
import { LIST_KIND_OF, RoutedSession } from '../../router/routed-session.js';
import { downgradeResult } from '../../translation/result-downgrade.js';
import { HostTasks } from './host-tasks.js';
import { RequestPort } from './request-port.js';
import type { TaskRequestContext } from './task-requests.js';
import { listTasks, taskRequest } from './task-requests.js';

/** What a legacy host session needs from the gateway that owns it. */
export interface HostSessionEnv extends RoutedSessionEnv {
  serverInfo: JsonObject;
  serverCapabilities(): JsonObject;
  /** The `tasks` capability offered to a host that takes tasks (2025-11-25): what the upstreams offer; undefined for none. */
  taskCapabilities?(): JsonObject | undefined;
  instructions(): string | undefined;
  /** Settles once every upstream's first probe ended (each bounded by its connect timeout): initialize waits for it. */
  upstreamsProbed(): Promise<void>;
}

const TAKEN: Verdict = { ok: true };

export class GatewayHostSession implements HostSession {
  readonly id: string;
  /** This host's place in the router: links, catalog, calls, questions. */
  readonly routed: RoutedSession;
  #channel: HostChannel;
  #env: HostSessionEnv;
  #initialized = false;
  /** The tasks this host created, under host task ids of this session's own; whether it takes tasks at all (else task-only tools are hidden and `task` is stripped). */
  #tasks = new HostTasks();
  /** What this host's task requests go through (made at its first task request). */
  #taskContext: TaskRequestContext | undefined;

  constructor(id: string, channel: HostChannel, env: HostSessionEnv) {
    this.id = id;
    this.#channel = channel;
    this.#env = env;
    this.routed = new RoutedSession(id, (session) => new RequestPort(session, channel, this), env, this.#tasks);
  }

  /** The gateway forgot this session (it closed): the channel is told, so its edge ends it too. */
  channelClosed(): void {
    this.#channel.onSessionClosed?.();
  }

  /** Whether the host sent notifications/initialized (nothing but responses and questions reach it before). */
  get initialized(): boolean {
    return this.#initialized;
  }

  #tasksContext(): TaskRequestContext {
    const routed = this.routed;
    this.#taskContext ??= {
      tasks: this.#tasks,
      send: (request, upstream, params, timeoutMs) => routed.sendTo(request, upstream, params, timeoutMs),
      logger: this.#env.logger,
      sessionId: this.id,
      pageSize: this.#env.pageSize,
    };
    return this.#taskContext;
  }

  get protocolVersion(): string | undefined {
    return this.routed.protocolVersion;
  }

  get closed(): boolean {
    return this.routed.closed;
  }

  receive(message: JsonRpcMessage): Verdict {
    if (!('method' in message)) return this.routed.admitAnswer(message);
    if (this.routed.closed) return TAKEN;
    if ('id' in message) void this.#onRequest(message);
    else this.#onNotification(message);
    return TAKEN;
  }

  /** Whether `id` names a question put to this host that it has not answered yet. */
  expectsResponse(id: JsonRpcId): boolean {
    return this.routed.expectsResponse(id);
  }

  close(): Promise<void> {
    return this.routed.close();
  }

  // ---- from the host ------------------------------------------------------------------------------

  async #onRequest(request: JsonRpcRequest): Promise<void> {
    let response: JsonRpcResponse | undefined;
    try {
      const result = (await traceHostRequest(request, this.id, this.routed.protocolVersion, () => this.#dispatch(request))) ?? {};
      // Results come as the upstream's revision made them: fit them to what this host's revision knows.
      const revision = this.routed.protocolVersion;
      response = resultResponse(request.id, revision ? downgradeResult(request.method, result, revision) : result);
    } catch (error) {
      const protocolError = toProtocolError(error);
      if (protocolError.code === RpcCode.InternalError) {
        this.#env.logger.log('error', `request ${request.method} failed`, { session: this.id, error: String(error) });
      }
      // A call the host cancelled still gets this error, so that its HTTP stream can end.
      response = errorResponse(request.id, protocolError.toJson());
    }
    if (!this.routed.closed) this.#channel.send(response, request.id);
  }

  async #dispatch(request: JsonRpcRequest): Promise<JsonObject | undefined> {
    const params = request.params ?? {};
    if (request.method === 'initialize') return this.#answerInitialize(params);
    if (request.method === 'ping') return {};
    if (!this.routed.profile) throw new GatewayError('GW_ERR_NOT_INITIALIZED', 'Session not initialized: send initialize first');
    const listKind = LIST_KIND_OF[request.method];
    if (listKind) return this.routed.list(listKind, params);
    switch (request.method) {
      case 'tools/call':
      case 'prompts/get':
      case 'resources/read':
      case 'completion/complete':
        return this.routed.route(request);
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        return this.routed.subscribe(request);
      case 'logging/setLevel':
        if (typeof params.level !== 'string') throw new GatewayError('GW_ERR_INVALID_PARAMS', 'Invalid params: level must be a string');
        await this.routed.setLogLevel(params.level);
        return {};
      case 'tasks/get':
      case 'tasks/result':
      case 'tasks/cancel':
        if (this.#tasks.taking) return taskRequest(this.#tasksContext(), request, params);
        break;
      case 'tasks/list':
        if (this.#tasks.taking) return listTasks(this.#tasksContext(), params);
        break;
    }
    throw new GatewayError('GW_ERR_METHOD_NOT_FOUND', `Method not found: ${request.method}`);
  }

  /**
   * The answer to `initialize`, once every upstream's first probe ended (at most its connect timeout): with
   * their capabilities and instructions, not the partial picture of a gateway that just started.
   */
  async #answerInitialize(params: JsonObject): Promise<JsonObject> {
    if (this.routed.profile) throw new GatewayError('GW_ERR_ALREADY_INITIALIZED', 'Session already initialized');
    const protocolVersion = negotiateRevision(params.protocolVersion);
    const init: HostInit = {
      protocolVersion,
      capabilities: isObject(params.capabilities) ? params.capabilities : {},
      // Only the schema's fields, bounded: the host's object as sent never reaches an upstream.
      clientInfo: boundedClientInfo(params.clientInfo),
      ...(this.#channel.principal ? { principal: this.#channel.principal } : {}),
    };
    this.#tasks.taking = hostTakesTasks(init.capabilities, protocolVersion);
    this.routed.open(init);
    await this.#env.upstreamsProbed();
    const tasks = this.#tasks.taking ? this.#env.taskCapabilities?.() : undefined;
    const result: JsonObject = {
      protocolVersion,
      capabilities: { ...this.#env.serverCapabilities(), ...(tasks ? { tasks } : {}) },
      serverInfo: this.#env.serverInfo,
    };
    const instructions = this.#env.instructions();
    if (instructions) result.instructions = instructions;
    return result;
  }

  #onNotification(message: JsonRpcNotification): void {
    const params = message.params ?? {};
    switch (message.method) {
      case 'notifications/initialized':
        this.#initialized = true;
        return;
      case 'notifications/cancelled':
        this.routed.cancelCall(params.requestId as JsonRpcId, typeof params.reason === 'string' ? params.reason : 'cancelled by the host');
        return;
      case 'notifications/progress':
        this.routed.relayProgress(params);
        return;
      case 'notifications/roots/list_changed':
        this.routed.rootsChanged();
        return;
      default:
        this.#env.logger.log('debug', `ignoring host notification ${message.method}`, { session: this.id });
    }
  }
}
