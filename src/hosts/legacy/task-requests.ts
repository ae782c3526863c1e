/** @module A legacy host's task requests: tasks/get, tasks/result, tasks/cancel sent to the upstream that runs the task, and tasks/list merged over every upstream. */

import type { Logger } from '../../core/log.js';
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { relatedTaskId, withRelatedTaskId } from '../../protocol/tasks.js';
import { paginate } from '../../router/catalog/pagination.js';
import { unavailableError } from '../../router/call-router.js';
import type { UpstreamSession } from '../../upstream/session.js';
import type { HostTasks } from './host-tasks.js';
import { listUpstreamTasks } from './host-tasks.js';

/** What a host session's task requests need: its tasks, a way to send one request to one upstream session, and where to log. */
export interface TaskRequestContext {
  tasks: HostTasks;
  /** Sends the request to that upstream session as it is (no retry); `requestTimeoutMs` 0 waits as long as it takes. */
  send(request: JsonRpcRequest, upstream: UpstreamSession, params: JsonObject, requestTimeoutMs: number | undefined): Promise<JsonObject>;
  logger: Logger;
  sessionId: string;
  pageSize: number;
}

/**
 * tasks/get, tasks/result, tasks/cancel of one of this host's tasks: to the upstream session that runs it, under
 * the upstream's id; the answer names the task as the host knows it. tasks/result waits as long as the task runs
 * (no request timeout: the host can cancel it).
 */
export async function taskRequest(context: TaskRequestContext, request: JsonRpcRequest, params: JsonObject): Promise<JsonObject> {
  const route = context.tasks.route(params.taskId);
  const hostId = route.hostId;
  const upstreamParams = { ...params, taskId: route.taskId };
  let result: JsonObject;
  try {
    result = await context.send(request, route.upstream, upstreamParams, request.method === 'tasks/result' ? 0 : undefined);
  } catch (error) {
    throw unavailableError(route.upstream.spec.name, error);
  }
  if (request.method === 'tasks/result') return relatedTaskId(result) === undefined ? result : withRelatedTaskId(result, hostId);
  return { ...result, taskId: hostId };
}

/** tasks/list: this host's tasks on every upstream that lists tasks, under the host's ids, paginated by the gateway. */
export async function listTasks(context: TaskRequestContext, params: JsonObject): Promise<JsonObject> {
  const tasks: JsonObject[] = [];
  for (const upstream of context.tasks.upstreams()) {
    const offered = upstream.serverCapabilities.tasks;
    if (!isObject(offered) || !isObject(offered.list)) continue;
    try {
      const listed = await listUpstreamTasks(upstream);
      for (const task of listed.tasks) {
        const shown = context.tasks.taskToHost(upstream, task);
        if (shown) tasks.push(shown);
      }
      if (listed.complete) context.tasks.keepOnly(upstream, new Set(listed.tasks.map((task) => String(task.taskId))));
    } catch (error) {
      context.logger.log('warn', `skipping upstream '${upstream.spec.name}' in tasks/list`, { session: context.sessionId, error: String(error) });
    }
  }
  const page = paginate(tasks, params.cursor, context.pageSize);
  return { tasks: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
