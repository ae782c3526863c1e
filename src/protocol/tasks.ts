/** @module MCP Tasks of 2025-11-25 (experimental core feature): who can use them, task-only tools, and task ids in messages. */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';

/** Key of `_meta` naming the task a message belongs to (`{taskId}`). */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** The requests a task requestor sends about a task it created (they name it by `taskId`, except tasks/list). */
export const TASK_METHODS: readonly string[] = ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'];

/** The revision that defines Tasks in the core protocol (2026-07-28 moved them to an extension). */
export const TASKS_REVISION = '2025-11-25';

/** Whether a host of `revision` that declared `capabilities` can take tasks: only 2025-11-25 with a `tasks` object. */
export function hostTakesTasks(capabilities: unknown, revision: string): boolean {
  return revision === TASKS_REVISION && isObject(capabilities) && isObject(capabilities.tasks);
}

/** Whether an upstream that offered `capabilities` accepts task-augmented `tools/call`. */
export function upstreamRunsToolTasks(capabilities: unknown): boolean {
  const tasks = isObject(capabilities) ? capabilities.tasks : undefined;
  const requests = isObject(tasks) ? tasks.requests : undefined;
  return isObject(requests) && isObject(requests.tools) && isObject(requests.tools.call);
}

/**
 * The `tasks` capability the gateway offers a host that takes tasks: what its upstreams that run tool tasks
 * offer, merged (`list`, `cancel`, `requests.tools.call`). Undefined when none runs tool tasks.
 */
export function gatewayTaskCapabilities(upstreams: JsonObject[]): JsonObject | undefined {
  const runners = upstreams.filter(upstreamRunsToolTasks).map((caps) => caps.tasks as JsonObject);
  if (runners.length === 0) return undefined;
  return {
    ...(runners.some((tasks) => isObject(tasks.list)) ? { list: {} } : {}),
    ...(runners.some((tasks) => isObject(tasks.cancel)) ? { cancel: {} } : {}),
    requests: { tools: { call: {} } },
  };
}

/** Whether a tool can only be called as a task (`execution.taskSupport: "required"`). */
export function isTaskOnlyTool(tool: JsonObject): boolean {
  return isObject(tool.execution) && tool.execution.taskSupport === 'required';
}

/** The params of a request without its `task` augmentation (the same object when it has none). */
export function withoutTaskParam(params: JsonObject): JsonObject {
  if (!('task' in params)) return params;
  const { task: _task, ...rest } = params;
  return rest;
}

/** The task id a CreateTaskResult (`{task: {taskId}}`) names, if it is one. */
export function createdTaskId(result: JsonObject): string | undefined {
  return isObject(result.task) && typeof result.task.taskId === 'string' ? result.task.taskId : undefined;
}

/** The task id of `_meta[related-task]` on params or a result, if any. */
export function relatedTaskId(value: JsonObject | undefined): string | undefined {
  const meta = value?._meta;
  if (!isObject(meta)) return undefined;
  const related = meta[RELATED_TASK_META];
  return isObject(related) && typeof related.taskId === 'string' ? related.taskId : undefined;
}

/** `value` with its `_meta[related-task].taskId` set to `taskId` (other `_meta` keys kept). */
export function withRelatedTaskId(value: JsonObject, taskId: string): JsonObject {
  const meta = isObject(value._meta) ? value._meta : {};
  const related = isObject(meta[RELATED_TASK_META]) ? meta[RELATED_TASK_META] : {};
  return { ...value, _meta: { ...meta, [RELATED_TASK_META]: { ...related, taskId } } };
}
