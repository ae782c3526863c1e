/** @module Tests of 2026-07-28 hosts through `createGateway(...).serveModern`: server/discover, lists and plain calls, removed methods, log lines, reused ids, and the stand-ins (idle timeout, caps). */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { silentLogger } from '../core/log.js';
import { RecordingTracer } from '../core/tracing/testing/recording-tracer.js';
import { installTracer } from '../core/tracing/trace-port.js';
import type { ToolHandler } from '../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, spec } from './testing/gateway-doubles.js';
import { ACCEPT, keys, modern, serve, resultOf, errorOf, textOf, inputRequired, deferred, eventually, legacySetup, caller, callsOf, restart, createGateway } from './testing/modern-doubles.js';

// ---- server/discover, lists, plain calls, removed methods -------------------------------------------

test('server/discover: every revision, the merged capabilities, complete, cache hints, serverInfo in _meta', async () => {
  const { gateway } = legacySetup({ restart });
  await gateway.ready;
  const { response } = serve(gateway, modern(1, 'server/discover'));
  const result = resultOf(await response());
  assert.deepEqual(result.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
  assert.ok(isObject(result.capabilities));
  assert.ok(isObject(result.capabilities.tools), 'the upstream\'s tools are offered');
  assert.equal(result.resultType, 'complete');
  assert.equal(result.ttlMs, 0);
  assert.equal(result.cacheScope, 'private');
  assert.ok(isObject(result._meta));
  const info = result._meta['io.modelcontextprotocol/serverInfo'];
  assert.ok(isObject(info) && typeof info.name === 'string' && typeof info.version === 'string', JSON.stringify(result._meta));
  await gateway.close();
});

test('tools/list and a plain tools/call: complete; cache hints on the list only', async () => {
  const { gateway, up } = legacySetup({ status: () => ({ content: [{ type: 'text', text: 'fine' }] }) });
  await gateway.ready;
  const list = resultOf(await serve(gateway, modern('l', 'tools/list')).response());
  assert.deepEqual(list.tools, [{ name: 'status', inputSchema: { type: 'object' } }]);
  assert.equal(list.resultType, 'complete');
  assert.equal(list.ttlMs, 0);
  assert.equal(list.cacheScope, 'private');
  const call = await serve(gateway, modern('c', 'tools/call', { name: 'status', arguments: {} })).response();
  assert.equal(call.id, 'c', 'answered under the host\'s own id');
  const result = resultOf(call);
  assert.equal(textOf(call), 'fine');
  assert.equal(result.resultType, 'complete');
  assert.equal(Object.hasOwn(result, 'ttlMs'), false, 'a tool result is not cacheable');
  assert.equal(Object.hasOwn(result, 'cacheScope'), false);
  // The legacy upstream never sees the envelope.
  const upstreamParams = callsOf(caller(up))[0]?.params ?? {};
  assert.doesNotMatch(JSON.stringify(upstreamParams), /io\.modelcontextprotocol\//);
  await gateway.close();
});

test('the methods 2026-07-28 removed are -32601', async () => {
  const { gateway } = legacySetup({ restart });
  await gateway.ready;
  const removed: [string, JsonObject][] = [
    ['initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }],
    ['ping', {}],
    ['logging/setLevel', { level: 'info' }],
    ['resources/subscribe', { uri: 'x://1' }],
  ];
  for (const [method, params] of removed) {
    const response = await serve(gateway, modern(method, method, params)).response();
    assert.equal(response.id, method);
    assert.equal(errorOf(response).code, -32601, method);
  }
  await gateway.close();
});

test('log lines reach a host only when its envelope asks for them, each level on an upstream session set to it', async () => {
  const logs: ToolHandler = async (_call, server) => {
    await server.notify('notifications/message', { level: 'warning', data: 'disk almost full' });
    return { content: [{ type: 'text', text: 'ok' }] };
  };
  const { gateway, up } = legacySetup({ logs });
  await gateway.ready;
  const call = (id: number, level?: string) => {
    const request = modern(id, 'tools/call', { name: 'logs', arguments: {} });
    if (level !== undefined) (request.params?._meta as JsonObject)['io.modelcontextprotocol/logLevel'] = level;
    return serve(gateway, request);
  };
  const quiet = call(1);
  assert.equal(textOf(await quiet.response()), 'ok');
  assert.deepEqual(quiet.sink.notes, [], 'no logLevel: no log lines');
  const chatty = call(2, 'info');
  assert.equal(textOf(await chatty.response()), 'ok');
  assert.deepEqual(chatty.sink.notes, [{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', data: 'disk almost full' } }]);
  const levels = up.servers.flatMap((s) => s.received.flatMap((m) => ('method' in m && m.method === 'logging/setLevel' ? [m.params?.level] : [])));
  assert.deepEqual(levels, ['info'], 'the upstream session of the info host was set to info; the quiet one to nothing');
  await gateway.close();
});

test('two hosts may use the same JSON-RPC id at once: each gets its own answer', async () => {
  const gate = deferred();
  const named: ToolHandler = async (call) => {
    await gate.promise;
    return { content: [{ type: 'text', text: `hello ${String((call.params?.arguments as JsonObject).who)}` }] };
  };
  const { gateway, up } = legacySetup({ named });
  const alice = serve(gateway, modern(7, 'tools/call', { name: 'named', arguments: { who: 'alice' } }), 'alice');
  const again = serve(gateway, modern(7, 'tools/call', { name: 'named', arguments: { who: 'alice-2' } }), 'alice');
  const bob = serve(gateway, modern(7, 'tools/call', { name: 'named', arguments: { who: 'bob' } }), 'bob');
  await eventually(() => up.servers.reduce((n, s) => n + callsOf(s).length, 0) === 3, 'three upstream calls');
  gate.resolve();
  assert.equal(textOf(await alice.response()), 'hello alice');
  assert.equal(textOf(await again.response()), 'hello alice-2');
  assert.equal(textOf(await bob.response()), 'hello bob');
  for (const s of [alice, again, bob]) assert.equal((await s.response()).id, 7);
  await gateway.close();
});

test('with http.sessionIdleTimeout 0 (never), an idle stand-in keeps its upstream session', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { gateway, up } = legacySetup({ status: () => ({ content: [{ type: 'text', text: 'fine' }] }) });
  await gateway.ready;
  const probes = up.servers.length;
  const status = (id: number) => modern(id, 'tools/call', { name: 'status', arguments: {} });
  assert.equal(textOf(await serve(gateway, status(1)).response()), 'fine');
  t.mock.timers.tick(5000);
  assert.equal(textOf(await serve(gateway, status(2)).response()), 'fine');
  const calling = up.servers.slice(probes).filter((server) => callsOf(server).length > 0);
  assert.deepEqual(calling.map((server) => callsOf(server).length), [2], 'one upstream session served both calls');
  await gateway.close();
});

test('at the stand-in cap an idle stand-in makes room; when all are busy a new context is refused with GW_ERR_HOST_LIMIT', async () => {
  const up = fakeUpstreamFactory({ restart });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open(), requestState: { keys: keys() }, maxStandIns: 2 });
  await gateway.ready;
  // Two principals with a parked call each: both stand-ins are busy.
  const alice = inputRequired(await serve(gateway, modern(1, 'tools/call', { name: 'restart', arguments: {} }), 'alice').response());
  inputRequired(await serve(gateway, modern(2, 'tools/call', { name: 'restart', arguments: {} }), 'bob').response());
  const refused = errorOf(await serve(gateway, modern(3, 'tools/list'), 'carol').response());
  assert.equal(refused.code, -32603);
  assert.deepEqual(refused.data, { reason: 'GW_ERR_HOST_LIMIT' });

  // Alice's call completes: her stand-in is idle, so Carol's context takes its place.
  const [key] = alice.keys;
  const done = await serve(gateway, modern(4, 'tools/call', { name: 'restart', arguments: {}, inputResponses: { [key as string]: ACCEPT }, requestState: alice.requestState }), 'alice').response();
  assert.equal(resultOf(done).resultType, 'complete');
  const served = await serve(gateway, modern(5, 'tools/list'), 'carol').response();
  assert.ok(Array.isArray(resultOf(served).tools));
  await gateway.close();
});

test('tracing: a 2026-07-28 host\'s call is a server span continuing the host\'s _meta.traceparent, ended with the call', async () => {
  const recording = new RecordingTracer();
  const uninstall = installTracer(recording);
  try {
    const { gateway } = legacySetup({ status: () => ({ content: [{ type: 'text', text: 'fine' }] }) });
    await gateway.ready;
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const request = modern('c', 'tools/call', { name: 'status', arguments: {} });
    request.params = { ...request.params, _meta: { ...(request.params?._meta as JsonObject), traceparent } };
    assert.equal(textOf(await serve(gateway, request).response()), 'fine');
    const servers = recording.spans.filter((one) => one.kind === 'server');
    assert.equal(servers.length, 1, servers.map((one) => one.name).join(', '));
    const span = servers[0] as (typeof servers)[number];
    assert.equal(span.name, 'tools/call status');
    assert.equal((span.parent as { traceparent?: string } | undefined)?.traceparent, traceparent);
    assert.equal(span.attributes['mcp.protocol.version'], '2026-07-28');
    assert.equal(span.attributes['jsonrpc.request.id'], 'c');
    await eventually(() => span.ended, 'the span ends with the call');
    await gateway.close();
  } finally {
    uninstall();
  }
});
