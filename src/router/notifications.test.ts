/** @module Tests of the fan-out of what upstream sessions send back, without a gateway: host and upstream doubles over the call registry and attribution. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject, JsonRpcId, JsonRpcNotification, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { ProtocolError } from '../protocol/errors.js';
import { CallAttribution } from './attribution.js';
import { CallRegistry } from './calls.js';
import type { DeliveredRoute, NotifiedHost, NotifyingUpstream, UrlElicitationTargets } from './notifications.js';
import { UpstreamNotifications } from './notifications.js';

class Upstream implements NotifyingUpstream {
  readonly spec: { name: string };
  readonly listCache = new Map<string, unknown>([['tools', 1], ['prompts', 2], ['resources', 3], ['resourceTemplates', 4]]);
  readonly responses: { id: JsonRpcId; result?: JsonObject; error?: ProtocolError }[] = [];
  constructor(readonly key: string) {
    this.spec = { name: key };
  }
  respond(id: JsonRpcId, result: JsonObject): void {
    this.responses.push({ id, result });
  }
  respondError(id: JsonRpcId, error: ProtocolError): void {
    this.responses.push({ id, error });
  }
}

/** A host session that records what reaches it. */
class Host implements NotifiedHost<Upstream> {
  closed = false;
  readonly got: string[] = [];
  readonly questions: { request: JsonRpcRequest; route: DeliveredRoute }[] = [];
  subscribed = new Set<string>();
  /** The upstream request ids it would withdraw, and the task ids it owns. */
  asked = new Set<unknown>();
  tasks = new Set<unknown>();
  constructor(readonly id: string) {}
  deliverQuestion(_upstream: Upstream, request: JsonRpcRequest, route: DeliveredRoute): void {
    this.questions.push({ request, route });
  }
  callsWithOpenQuestions(): ReadonlySet<number> {
    return new Set();
  }
  withdrawQuestion(_upstream: Upstream, upstreamId: unknown): boolean {
    if (!this.asked.has(upstreamId)) return false;
    this.got.push(`withdrawn ${String(upstreamId)}`);
    return true;
  }
  taskStatus(_upstream: Upstream, message: JsonRpcNotification): boolean {
    if (!this.tasks.has(message.params?.taskId)) return false;
    this.got.push(`task ${String(message.params?.taskId)}`);
    return true;
  }
  upstreamClosed(upstream: Upstream): void {
    this.got.push(`closed ${upstream.key}`);
  }
  isSubscribed(uri: string): boolean {
    return this.subscribed.has(uri);
  }
  forward(message: JsonRpcNotification, relatedRequestId?: JsonRpcId): void {
    this.got.push(relatedRequestId === undefined ? message.method : `${message.method} on ${String(relatedRequestId)}`);
  }
  elicitationComplete(message: JsonRpcNotification, relatedRequestId: JsonRpcId | undefined): void {
    this.got.push(`complete ${String(message.params?.elicitationId)} on ${String(relatedRequestId)}`);
  }
  listChanged(method: string): void {
    this.got.push(method);
  }
}

function fanOut(hosts: Host[]) {
  const calls = new CallRegistry<Host, Upstream>();
  const elicitations = new Map<string, { host: Host; relatedRequestId?: JsonRpcId }>();
  const dropped: string[] = [];
  const urlElicitations: UrlElicitationTargets<Host> = {
    take: (key, id) => {
      const target = elicitations.get(`${key}/${id}`);
      elicitations.delete(`${key}/${id}`);
      return target;
    },
    dropUpstream: (key) => dropped.push(key),
  };
  const logged: string[] = [];
  const logger = { log: (_level: string, message: string) => logged.push(message), child: () => logger };
  const notifications = new UpstreamNotifications<Host, Upstream>({
    calls,
    attribution: new CallAttribution(calls),
    urlElicitations,
    hosts: () => hosts,
    unattributable: (message) => new ProtocolError(-32600, message),
    logger,
  });
  return { notifications, calls, elicitations, dropped, logged };
}

const note = (method: string, params?: JsonObject): JsonRpcNotification => (params ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', method });

test("a list change drops the upstream's cached lists and reaches its owner only, or every host of a shared upstream", () => {
  const [a, b] = [new Host('a'), new Host('b')];
  const { notifications, calls } = fanOut([a, b]);
  const own = new Upstream('own');
  calls.adopt(own, a);
  notifications.notification(own, note('notifications/resources/list_changed'), undefined);
  assert.deepEqual([...own.listCache.keys()], ['tools', 'prompts']);
  assert.deepEqual(a.got, ['notifications/resources/list_changed']);
  assert.deepEqual(b.got, []);
  const shared = new Upstream('shared');
  notifications.notification(shared, note('notifications/tools/list_changed'), undefined);
  assert.deepEqual([...shared.listCache.keys()], ['prompts', 'resources', 'resourceTemplates']);
  assert.deepEqual([a.got, b.got], [['notifications/resources/list_changed', 'notifications/tools/list_changed'], ['notifications/tools/list_changed']]);
  a.closed = true;
  notifications.notification(own, note('notifications/prompts/list_changed'), undefined);
  assert.equal(a.got.length, 2, 'a closed owner gets nothing');
  assert.deepEqual(b.got, ['notifications/tools/list_changed'], 'nor does anyone else');
});

test('a resource update reaches only subscribed hosts; a cancellation and a task status stop at the host they belong to', () => {
  const [a, b, c] = [new Host('a'), new Host('b'), new Host('c')];
  const { notifications, logged } = fanOut([a, b, c]);
  const shared = new Upstream('shared');
  b.subscribed.add('file:///x');
  notifications.notification(shared, note('notifications/resources/updated', { uri: 'file:///x' }), undefined);
  assert.deepEqual([a.got, b.got, c.got], [[], ['notifications/resources/updated'], []]);
  a.asked.add('q1');
  b.asked.add('q1');
  notifications.notification(shared, note('notifications/cancelled', { requestId: 'q1' }), undefined);
  assert.deepEqual([a.got, b.got.slice(1)], [['withdrawn q1'], []], 'the first host that had it, no other');
  c.tasks.add('t1');
  notifications.notification(shared, note('notifications/tasks/status', { taskId: 't1' }), undefined);
  assert.deepEqual(c.got, ['task t1']);
  notifications.notification(shared, note('notifications/tasks/status', { taskId: 't2' }), undefined);
  assert.match(logged.at(-1) ?? '', /no host session has task "t2"/);
});

test('an elicitation completion reaches only the host that received that elicitation, and not once it closed', () => {
  const [a, b] = [new Host('a'), new Host('b')];
  const { notifications, elicitations, logged } = fanOut([a, b]);
  const shared = new Upstream('shared');
  elicitations.set('shared/e1', { host: b, relatedRequestId: 7 });
  elicitations.set('shared/e2', { host: a });
  notifications.notification(shared, note('notifications/elicitation/complete', { elicitationId: 'e1' }), undefined);
  assert.deepEqual([a.got, b.got], [[], ['complete e1 on 7']]);
  a.closed = true;
  notifications.notification(shared, note('notifications/elicitation/complete', { elicitationId: 'e2' }), undefined);
  assert.deepEqual(a.got, []);
  assert.match(logged.at(-1) ?? '', /no host session is waiting for elicitation "e2"/);
});

test("a question goes to the host it is attributed to; one no call explains is refused, but a ping is the gateway's to answer", () => {
  const [a, b] = [new Host('a'), new Host('b')];
  const { notifications, calls } = fanOut([a, b]);
  const own = new Upstream('own');
  calls.adopt(own, a);
  const ask: JsonRpcRequest = { jsonrpc: '2.0', id: 'up-1', method: 'elicitation/create', params: {} };
  notifications.request(own, ask, undefined);
  assert.deepEqual(a.questions, [{ request: ask, route: { callId: undefined, callTool: undefined, relatedRequestId: undefined, pause: [] } }], "a per-session upstream's question outside a call goes to its owner");
  const call = calls.open({ host: a, requestId: 'h-1', tool: { host: 'own_restart', upstream: 'restart' } });
  calls.bind(call, own, 5);
  notifications.request(own, { ...ask, id: 'up-4' }, 5);
  const tool = { host: 'own_restart', upstream: 'restart' };
  assert.deepEqual(a.questions[1]?.route, { callId: 5, callTool: tool, relatedRequestId: 'h-1', pause: [5] }, 'the attributed call comes with its tool');
  calls.end(call, 'finished');
  const shared = new Upstream('shared');
  notifications.request(shared, { jsonrpc: '2.0', id: 'up-2', method: 'ping' }, undefined);
  notifications.request(shared, { jsonrpc: '2.0', id: 'up-3', method: 'sampling/createMessage', params: {} }, undefined);
  assert.deepEqual(shared.responses[0], { id: 'up-2', result: {} });
  assert.equal(shared.responses[1]?.id, 'up-3');
  assert.match(shared.responses[1]?.error?.message ?? '', /^Not deliverable: cannot tell which host session sampling\/createMessage from upstream 'shared' belongs to/);
  assert.deepEqual(b.questions, []);
});

test("an upstream session's end drops its URL elicitations and is told to every host it served; a log line no call explains is dropped", () => {
  const [a, b] = [new Host('a'), new Host('b')];
  const { notifications, dropped, logged } = fanOut([a, b]);
  const shared = new Upstream('shared');
  notifications.notification(shared, note('notifications/message', { level: 'info', data: 'x' }), undefined);
  assert.deepEqual([a.got, b.got], [[], []]);
  assert.match(logged.at(-1) ?? '', /dropping a log line of shared upstream 'shared'/);
  notifications.closed(shared, 'crashed');
  assert.deepEqual(dropped, ['shared']);
  assert.deepEqual([a.got, b.got], [['closed shared'], ['closed shared']]);
});
