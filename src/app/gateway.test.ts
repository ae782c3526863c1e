/** @module Tests of the gateway core against scripted in-memory upstreams: routing, relaying, isolation, failure. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import type { ToolHandler } from '../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, connectHost, Host, legacySession, spec } from './testing/gateway-doubles.js';

const askApproval: ToolHandler = async (call, server) => {
  const answer = await server.ask('elicitation/create', {
    message: `approve ${String((call.params?.arguments as JsonObject | undefined)?.who)}?`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: JSON.stringify('result' in answer ? answer.result : answer) }] };
};

test('tools are aggregated with prefix-on-conflict naming and calls reach their upstream', async () => {
  const a = fakeUpstreamFactory({ deploy: () => ({ content: [{ type: 'text', text: 'a-deploy' }] }), status: () => ({ content: [{ type: 'text', text: 'a-status' }] }) });
  const b = fakeUpstreamFactory({ status: () => ({ content: [{ type: 'text', text: 'b-status' }] }) });
  const gateway = createGateway(config([spec('a'), spec('b')]), {
    logger: silentLogger,
    openTransport: (s) => (s.name === 'a' ? a.open() : b.open()),
  });
  await gateway.ready;
  const host = await connectHost(gateway);
  const list = await host.request('tools/list');
  assert.ok('result' in list);
  assert.deepEqual((list.result.tools as JsonObject[]).map((t) => t.name), ['deploy', 'a_status', 'b_status']);
  const call = await host.request('tools/call', { name: 'b_status', arguments: {} });
  assert.ok('result' in call);
  assert.deepEqual(call.result.content, [{ type: 'text', text: 'b-status' }]);
  const unknown = await host.request('tools/call', { name: 'status', arguments: {} });
  assert.ok('error' in unknown);
  assert.equal(unknown.error.code, -32602);
  await gateway.close();
});

test('an upstream is promised only the capabilities its host declared, at the host revision', async () => {
  const up = fakeUpstreamFactory({ noop: () => ({ content: [] }) });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = new Host();
  host.session = gateway.openSession(host.channel);
  await host.request('initialize', { protocolVersion: '2025-06-18', capabilities: { sampling: {}, tasks: { list: {} } }, clientInfo: { name: 'h', version: '2' } });
  await host.request('tools/list');
  const listSession = up.servers.at(-1);
  assert.deepEqual(
    listSession?.initializeParams,
    { protocolVersion: '2025-06-18', capabilities: { sampling: {} }, clientInfo: { name: 'switchboard', version: '0.1.0' } },
    'the list session hosts alike share declares what they would, in the gateway\'s name',
  );
  await host.request('tools/call', { name: 'noop', arguments: {} });
  const perSession = up.servers.at(-1);
  assert.notEqual(perSession, listSession, 'the call opened the host\'s own session');
  assert.deepEqual(perSession?.initializeParams, { protocolVersion: '2025-06-18', capabilities: { sampling: {} }, clientInfo: { name: 'h', version: '2' } });
  await gateway.close();
});

test('two hosts calling at once each get only their own question, on the stream of their call', async () => {
  const up = fakeUpstreamFactory({ approve: askApproval });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const alice = await connectHost(gateway, { elicitation: {} });
  const bob = await connectHost(gateway, { elicitation: {} });
  const aliceCall = alice.request('tools/call', { name: 'approve', arguments: { who: 'alice' } }, 11);
  const bobCall = bob.request('tools/call', { name: 'approve', arguments: { who: 'bob' } }, 22);
  const [aq, bq] = await Promise.all([alice.question('elicitation/create'), bob.question('elicitation/create')]);
  assert.equal(aq.related, 11);
  assert.equal(bq.related, 22);
  assert.equal((aq.message as JsonRpcRequest).params?.message, 'approve alice?');
  assert.equal((bq.message as JsonRpcRequest).params?.message, 'approve bob?');
  assert.equal(alice.sent.filter((s) => 'method' in s.message && s.message.method === 'elicitation/create').length, 1);

  // Bob cannot answer Alice's question: the id is not one Bob's session expects.
  const aliceQuestionId = (aq.message as JsonRpcRequest).id;
  assert.equal(legacySession(bob.session).expectsResponse(aliceQuestionId), false);
  assert.equal(legacySession(alice.session).expectsResponse(aliceQuestionId), true);

  alice.session.receive({ jsonrpc: '2.0', id: aliceQuestionId, result: { action: 'accept', content: { ok: true } } });
  bob.session.receive({ jsonrpc: '2.0', id: (bq.message as JsonRpcRequest).id, result: { action: 'decline' } });
  const [ar, br] = await Promise.all([aliceCall, bobCall]);
  assert.ok('result' in ar && 'result' in br);
  assert.match(JSON.stringify(ar.result), /accept/);
  assert.match(JSON.stringify(br.result), /decline/);
  assert.equal(legacySession(alice.session).expectsResponse(aliceQuestionId), false);
  await gateway.close();
});

test('a shared upstream attributes questions by the call in flight and refuses ambiguous ones', async () => {
  const up = fakeUpstreamFactory({ approve: askApproval, slow: () => new Promise((resolve) => setTimeout(() => resolve({ content: [] }), 300)) });
  const gateway = createGateway(config([spec('desk', 'shared')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  assert.equal(up.servers.length, 1);
  const alice = await connectHost(gateway, { elicitation: {} });
  const bob = await connectHost(gateway, {});
  const call = alice.request('tools/call', { name: 'approve', arguments: { who: 'alice' } }, 5);
  const question = await alice.question('elicitation/create');
  assert.equal(question.related, 5);
  alice.session.receive({ jsonrpc: '2.0', id: (question.message as JsonRpcRequest).id, result: { action: 'accept', content: { ok: true } } });
  assert.ok('result' in (await call));
  assert.equal(up.servers.length, 1, 'one upstream session serves every host');

  // Two calls in flight from two hosts: a question cannot be attributed, so the upstream gets an error.
  await bob.request('tools/list');
  const slow = bob.request('tools/call', { name: 'slow', arguments: {} });
  await new Promise((r) => setTimeout(r, 30)); // Bob's call is in flight upstream
  const ambiguous = await alice.request('tools/call', { name: 'approve', arguments: { who: 'x' } });
  assert.ok('result' in ambiguous);
  assert.match(JSON.stringify(ambiguous.result), /Not deliverable/);
  await slow;
  // Bob declared no elicitation: a question attributed to Bob's call gets what a host lacking it sends, never reaches him.
  const bobCall = await bob.request('tools/call', { name: 'approve', arguments: { who: 'bob' } });
  assert.match(JSON.stringify(bobCall), /-32601/);
  assert.match(JSON.stringify(bobCall), /GW_ERR_HOST_LACKS_CAPABILITY/);
  assert.equal(bob.sent.some((s) => 'method' in s.message && s.message.method === 'elicitation/create'), false);
  await gateway.close();
});

test('progress tokens are remapped both ways and cancellation crosses in both directions', async () => {
  let release: (() => void) | undefined;
  const up = fakeUpstreamFactory({
    work: async (call, server) => {
      const token = (call.params?._meta as JsonObject).progressToken as number;
      await server.notify('notifications/progress', { progressToken: token, progress: 1, total: 2, message: 'half' });
      await new Promise<void>((resolve) => (release = resolve));
      return { content: [] };
    },
  });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = await connectHost(gateway);
  host.session.receive({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'work', arguments: {}, _meta: { progressToken: 'host-token' } } });
  const progress = await host.waitFor((s) => 'method' in s.message && s.message.method === 'notifications/progress');
  assert.equal(progress.related, 'c1');
  assert.deepEqual((progress.message as { params: JsonObject }).params, { progressToken: 'host-token', progress: 1, total: 2, message: 'half' });

  // Host cancels: the upstream is told with its own id, and the host's call ends.
  host.session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user' } });
  const ended = await host.waitFor((s) => !('method' in s.message) && s.message.id === 'c1');
  assert.ok('error' in ended.message);
  const server = up.servers.at(-1);
  await new Promise((r) => setTimeout(r, 20));
  const cancelled = server?.received.find((m) => 'method' in m && m.method === 'notifications/cancelled') as { params: JsonObject } | undefined;
  const forwarded = server?.received.find((m) => 'method' in m && m.method === 'tools/call') as JsonRpcRequest | undefined;
  assert.equal(cancelled?.params.requestId, forwarded?.id);
  release?.();
  await gateway.close();
});

test('an upstream that withdraws its question has the host told, with the host-side id', async () => {
  const up = fakeUpstreamFactory({
    approve: async (_call, server) => {
      void server.ask('elicitation/create', { message: 'hold', requestedSchema: { type: 'object', properties: {} } });
      await new Promise((r) => setTimeout(r, 50));
      await server.notify('notifications/cancelled', { requestId: 'up-1', reason: 'changed my mind' });
      return { content: [{ type: 'text', text: 'done' }] };
    },
  });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = await connectHost(gateway, { elicitation: {} });
  const call = host.request('tools/call', { name: 'approve', arguments: {} }, 3);
  const question = await host.question('elicitation/create');
  const withdrawn = await host.waitFor((s) => 'method' in s.message && s.message.method === 'notifications/cancelled');
  assert.equal((withdrawn.message as { params: JsonObject }).params.requestId, (question.message as JsonRpcRequest).id);
  assert.equal(withdrawn.related, 3);
  await call;
  assert.equal(legacySession(host.session).expectsResponse((question.message as JsonRpcRequest).id), false);
  await gateway.close();
});

test('an upstream crash mid-call fails the call at once and the next call gets a new upstream session', async () => {
  const up = fakeUpstreamFactory({
    crash: async (_call, server) => {
      setTimeout(() => void server.crash(), 10);
      return new Promise(() => undefined);
    },
    ok: () => ({ content: [{ type: 'text', text: 'fine' }] }),
  });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = await connectHost(gateway);
  const started = Date.now();
  const crashed = await host.request('tools/call', { name: 'crash', arguments: {} });
  assert.ok('error' in crashed);
  assert.equal(crashed.error.code, -32000);
  assert.ok(Date.now() - started < 1000);
  const before = up.servers.length;
  const ok = await host.request('tools/call', { name: 'ok', arguments: {} });
  assert.ok('result' in ok);
  assert.equal(up.servers.length, before + 1);
  await gateway.close();
});

test('an upstream that never answers times out, but not while the host is answering its question', async () => {
  const up = fakeUpstreamFactory({
    hang: () => new Promise(() => undefined),
    ask: askApproval,
  });
  const gateway = createGateway(config([spec('desk', 'per-session', { requestTimeoutMs: 150 })]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = await connectHost(gateway, { elicitation: {} });
  const hung = await host.request('tools/call', { name: 'hang', arguments: {} });
  assert.ok('error' in hung);
  assert.equal(hung.error.code, -32000);
  assert.equal((hung.error.data as JsonObject | undefined)?.reason, 'GW_ERR_UPSTREAM_TIMEOUT');
  assert.match(hung.error.message, /within 150 ms/);

  const call = host.request('tools/call', { name: 'ask', arguments: { who: 'slow human' } });
  const question = await host.question('elicitation/create');
  await new Promise((r) => setTimeout(r, 400)); // think time well past the request timeout
  host.session.receive({ jsonrpc: '2.0', id: (question.message as JsonRpcRequest).id, result: { action: 'accept', content: { ok: true } } });
  const answered = await call;
  assert.ok('result' in answered, JSON.stringify(answered));
  await gateway.close();
});

test('list_changed of an upstream reaches a live host session', async () => {
  const up = fakeUpstreamFactory({
    change: async (_call, server) => {
      await server.notify('notifications/tools/list_changed');
      return { content: [] };
    },
  });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = await connectHost(gateway);
  await host.request('tools/call', { name: 'change', arguments: {} });
  await host.waitFor((s) => 'method' in s.message && s.message.method === 'notifications/tools/list_changed');
  await gateway.close();
});

test('an upstream that cannot start is reported down, retried with backoff, and does not stop the others', async () => {
  const good = fakeUpstreamFactory({ ok: () => ({ content: [] }) });
  let attempts = 0;
  const gateway = createGateway(config([spec('broken'), spec('good')]), {
    logger: silentLogger,
    openTransport: (s) => {
      if (s.name === 'good') return good.open();
      attempts += 1;
      return { start: () => Promise.reject(new Error('spawn ENOENT')), send: () => Promise.resolve(), close: () => Promise.resolve() };
    },
  });
  await gateway.ready;
  const health = gateway.health();
  assert.equal(health.ready, true);
  assert.deepEqual(health.upstreams.map((u) => [u.name, u.state]), [['broken', 'down'], ['good', 'up']]);
  assert.match(health.upstreams[0]?.error ?? '', /ENOENT/);
  const host = await connectHost(gateway);
  const list = await host.request('tools/list');
  assert.ok('result' in list);
  assert.deepEqual((list.result.tools as JsonObject[]).map((t) => t.name), ['ok']);
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(attempts >= 3, `retried with backoff (attempts: ${attempts})`);
  await gateway.close();
});

test("an upstream's ping reaches the host of the call, and a ping no call explains is answered by the gateway", async () => {
  const up = fakeUpstreamFactory({
    ping_host: async (_call, server) => {
      const answer = await server.ask('ping', {});
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    },
  });
  const gateway = createGateway(config([spec('desk', 'shared')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = await connectHost(gateway);
  const call = host.request('tools/call', { name: 'ping_host', arguments: {} }, 9);
  const ping = await host.question('ping');
  assert.equal(ping.related, 9);
  host.session.receive({ jsonrpc: '2.0', id: (ping.message as JsonRpcRequest).id, result: {} });
  const done = await call;
  assert.ok('result' in done);
  assert.match(JSON.stringify(done.result), /\\"result\\":\{\}/);

  const shared = up.servers[0];
  const idle = await shared?.ask('ping', {});
  assert.deepEqual(idle && 'result' in idle ? idle.result : idle, {});
  await gateway.close();
});

test('a question outside any call goes to the standalone stream, or is refused at once when the host has none open', async () => {
  const up = fakeUpstreamFactory({ noop: () => ({ content: [] }) });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  for (const reachable of [true, false]) {
    const host = new Host();
    host.session = gateway.openSession({ ...host.channel, canReachOutsideCalls: () => reachable });
    await host.request('initialize', { protocolVersion: '2025-11-25', capabilities: { roots: {} }, clientInfo: { name: 'h', version: '1' } });
    await host.request('tools/call', { name: 'noop', arguments: {} }); // opens this host's upstream session
    const server = up.servers.at(-1);
    const asked = server?.ask('roots/list', {});
    if (reachable) {
      const question = await host.question('roots/list');
      assert.equal(question.related, undefined, 'sent on the standalone stream');
      host.session.receive({ jsonrpc: '2.0', id: (question.message as JsonRpcRequest).id, result: { roots: [] } });
      assert.deepEqual(await asked, { jsonrpc: '2.0', id: 'up-1', result: { roots: [] } });
    } else {
      const answer = await asked;
      assert.ok(answer && 'error' in answer);
      assert.equal((answer.error.data as JsonObject).reason, 'GW_ERR_HOST_UNREACHABLE');
      assert.equal(host.sent.some((s) => 'method' in s.message && s.message.method === 'roots/list'), false);
    }
  }
  await gateway.close();
});

test('roots/list for a host that declared no roots gets at once what such a host sends: -32601, GW_ERR_HOST_LACKS_CAPABILITY', async () => {
  const up = fakeUpstreamFactory({ noop: () => ({ content: [] }) });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = await connectHost(gateway, { elicitation: {} });
  await host.request('tools/call', { name: 'noop', arguments: {} }); // opens this host's upstream session
  const answer = await up.servers.at(-1)?.ask('roots/list', {});
  assert.ok(answer && 'error' in answer, JSON.stringify(answer));
  assert.equal(answer.error.code, -32601);
  assert.equal((answer.error.data as JsonObject | undefined)?.reason, 'GW_ERR_HOST_LACKS_CAPABILITY');
  assert.match(answer.error.message, /did not declare the roots capability/);
  assert.equal(host.sent.some((s) => 'method' in s.message && s.message.method === 'roots/list'), false);
  await gateway.close();
});

test('results are fitted to the host revision: structuredContent also as text and newer tool fields dropped for a 2025-03-26 host', async () => {
  const up = fakeUpstreamFactory({
    structured: () => ({ content: [], structuredContent: { count: 3 } }),
  });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = new Host();
  host.session = gateway.openSession(host.channel);
  await host.request('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'old', version: '1' } });
  const call = await host.request('tools/call', { name: 'structured', arguments: {} });
  assert.ok('result' in call);
  assert.deepEqual(call.result, { content: [{ type: 'text', text: '{"count":3}' }] });
  await gateway.close();
});
