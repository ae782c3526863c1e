/**
 * @module The tasks (2025-11-25) one host session created through the gateway: each upstream task id gets a host task
 * id of this session's own, like request ids, so a host can only ever name, list, cancel or hear of its own tasks.
 */

import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { createdTaskId, relatedTaskId, withRelatedTaskId } from '../../protocol/tasks.js';
import { MAX_PAGES } from '../../upstream/list-all.js';
import { GatewayError } from '../../protocol/gateway-errors.js';
import type { UpstreamSession } from '../../upstream/session.js';

/** Where a host's task runs: the upstream session that created it and the id it gave it. */
export interface TaskRoute {
  upstream: UpstreamSession;
  taskId: string;
  /** The id the host knows it by. */
  hostId: string;
}

/** What names an upstream session here: its process-unique key (questions' askers have one too). */
type Keyed = { readonly key: string };

/** Most tasks one host session keeps under its own ids; past it the oldest is forgotten (the table stays bounded). */
export const MAX_TASKS_PER_HOST = 1_000;

/** The tables of a host with no task yet, shared by all such hosts: only read (or emptied, a no-op); adopt() gives a host tables of its own first. */
const NO_ROUTES = new Map<string, TaskRoute>();
const NO_HOST_IDS = new Map<string, Map<string, string>>();

export class HostTasks {
  /** Host task id → where it runs, oldest first. Shared and empty until the first task (most hosts never make one). */
  #routes: Map<string, TaskRoute> = NO_ROUTES;
  /** Per upstream session (by key): its task id → the host task id. Shared and empty until the first task. */
  #hostIds: Map<string, Map<string, string>> = NO_HOST_IDS;
  #next = 0;
  /** Whether this host takes tasks (2025-11-25, declared): set at its initialize. */
  taking = false;
  readonly #maxTasks: number;

  constructor(maxTasks = MAX_TASKS_PER_HOST) {
    this.#maxTasks = maxTasks;
  }

  /** The host task id of an upstream's new task (the same one if it is already known). */
  takes(): boolean {
    return this.taking;
  }

  adopt(upstream: UpstreamSession, taskId: string): string {
    let ids = this.#hostIds.get(upstream.key);
    const known = ids?.get(taskId);
    if (known) return known;
    const hostId = `sb-task-${++this.#next}`;
    if (this.#routes === NO_ROUTES) {
      this.#routes = new Map();
      this.#hostIds = new Map();
    }
    if (!ids) this.#hostIds.set(upstream.key, (ids = new Map()));
    ids.set(taskId, hostId);
    this.#routes.set(hostId, { upstream, taskId, hostId });
    for (const oldest of this.#routes.values()) {
      if (this.#routes.size <= this.#maxTasks) break;
      this.#forget(oldest);
    }
    return hostId;
  }

  #forget(route: TaskRoute): void {
    this.#routes.delete(route.hostId);
    const ids = this.#hostIds.get(route.upstream.key);
    ids?.delete(route.taskId);
    if (ids?.size === 0) this.#hostIds.delete(route.upstream.key);
  }

  /** Where the host's task `hostId` runs; GW_ERR_UNKNOWN_TASK when this host has no such task (any more). */
  route(hostId: unknown): TaskRoute {
    const route = typeof hostId === 'string' ? this.#routes.get(hostId) : undefined;
    if (route && !route.upstream.closed) return route;
    if (route) this.dropUpstream(route.upstream);
    throw new GatewayError('GW_ERR_UNKNOWN_TASK', `Invalid params: unknown task ${JSON.stringify(hostId)}`);
  }

  /** The host task id of an upstream task, if it is this host's. */
  hostIdOf(upstream: Keyed, taskId: unknown): string | undefined {
    return typeof taskId === 'string' ? this.#hostIds.get(upstream.key)?.get(taskId) : undefined;
  }

  /** The open upstream sessions this host has tasks on. */
  upstreams(): UpstreamSession[] {
    const open = new Set<UpstreamSession>();
    for (const route of this.#routes.values()) if (!route.upstream.closed) open.add(route.upstream);
    return [...open];
  }

  /** A Task (or a task status notification's params) as this host sees it; undefined when it is not this host's. */
  taskToHost(upstream: Keyed, task: JsonObject): JsonObject | undefined {
    const hostId = this.hostIdOf(upstream, task.taskId);
    return hostId === undefined ? undefined : { ...task, taskId: hostId };
  }

  /** A CreateTaskResult (`{task}`) as this host sees it: the task adopted under a host id. */
  createdToHost(upstream: UpstreamSession, result: JsonObject): JsonObject {
    const taskId = createdTaskId(result);
    return taskId === undefined ? result : { ...result, task: { ...(result.task as JsonObject), taskId: this.adopt(upstream, taskId) } };
  }

  /** A result or params whose `_meta[related-task]` names one of this host's tasks, renamed for the host. */
  relatedToHost(upstream: Keyed, value: JsonObject): JsonObject {
    const hostId = this.hostIdOf(upstream, relatedTaskId(value));
    return hostId === undefined ? value : withRelatedTaskId(value, hostId);
  }

  /** An upstream's request (a question of a task) with its related task renamed for the host. */
  requestToHost(upstream: Keyed, request: JsonRpcRequest): JsonRpcRequest {
    if (!request.params) return request;
    const params = this.relatedToHost(upstream, request.params);
    return params === request.params ? request : { ...request, params };
  }

  /** Forgets the tasks of `upstream` that its full task list no longer shows (their ttl ran out). */
  keepOnly(upstream: Keyed, listed: ReadonlySet<string>): void {
    const ids = this.#hostIds.get(upstream.key);
    if (!ids) return;
    for (const [taskId, hostId] of ids) {
      if (listed.has(taskId)) continue;
      ids.delete(taskId);
      this.#routes.delete(hostId);
    }
  }

  /** Forgets every task of an upstream session that ended (its tasks ended with it). */
  dropUpstream(upstream: Keyed): void {
    for (const hostId of this.#hostIds.get(upstream.key)?.values() ?? []) this.#routes.delete(hostId);
    this.#hostIds.delete(upstream.key);
  }
}

/** Every page of an upstream session's tasks/list; `complete` unless a cursor loop ran into the page limit. */
export async function listUpstreamTasks(upstream: UpstreamSession): Promise<{ tasks: JsonObject[]; complete: boolean }> {
  const tasks: JsonObject[] = [];
  let cursor: unknown;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result = await upstream.request('tasks/list', cursor === undefined ? undefined : { cursor });
    if (Array.isArray(result.tasks)) tasks.push(...result.tasks.filter(isObject));
    cursor = result.nextCursor;
    if (typeof cursor !== 'string' || cursor === '') return { tasks, complete: true };
  }
  return { tasks, complete: false };
}
