/** @module Tests of URL-mode elicitation through the gateway core: -32042 relayed unchanged, completions only to the host that received the elicitation. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import type { ToolHandler } from '../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory, FakeRpcError } from '../upstream/testing/fake-upstream.js';
import type { Host, Sent } from './testing/gateway-doubles.js';
import { config, connectHost, spec } from './testing/gateway-doubles.js';

// ---- URL-mode elicitation: -32042 unchanged, completions only to the host that received the elicitation ----

const URL_HOST = { elicitation: { form: {}, url: {} } };

/** Asks the host a URL-mode elicitation with `arguments.id`, then announces its completion on the call, then answers. */
const signIn: ToolHandler = async (call, server) => {
  const id = String((call.params?.arguments as JsonObject).id);
  const answer = await server.ask('elicitation/create', { mode: 'url', message: 'Sign in', url: `https://idp.test/${id}`, elicitationId: id });
  await server.notify('notifications/elicitation/complete', { elicitationId: id });
  return { content: [{ type: 'text', text: JSON.stringify('result' in answer ? answer.result : answer) }] };
};

/** The -32042 an upstream sends, with data the gateway has no business touching (key order, unicode, extra members). */
function urlRequired(id: string): { code: number; message: string; data: JsonObject } {
  return {
    code: -32042,
    message: 'Needs sign-in — ✓',
    data: { zeta: [1, { b: 2, a: 1 }], elicitations: [{ mode: 'url', elicitationId: id, url: `https://idp.test/${id}`, message: 'Connect ünïcode' }], alpha: null },
  };
}

/** Fails with -32042 for `arguments.id`; the completion follows right behind the error (one read can carry both). */
const needsSignIn: ToolHandler = (call) => {
  const id = String((call.params?.arguments as JsonObject).id);
  throw new FakeRpcError(urlRequired(id), { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: id } });
};

const completions = (host: Host): Sent[] => host.sent.filter((s) => 'method' in s.message && s.message.method === 'notifications/elicitation/complete');
const completedIds = (host: Host): unknown[] => completions(host).map((s) => (s.message as { params: JsonObject }).params.elicitationId);

/** Lets queued deliveries (in-memory transports are asynchronous) happen before a negative check. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

test('per-session: a URL elicitation completion reaches only the host that received it, on the stream of its call', async () => {
  const up = fakeUpstreamFactory({
    sign_in: signIn,
    ghost: async (_call, server) => {
      await server.notify('notifications/elicitation/complete', { elicitationId: 'never-issued' });
      return { content: [] };
    },
  });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const alice = await connectHost(gateway, URL_HOST);
  const bob = await connectHost(gateway, URL_HOST);
  // The same id from two upstream sessions: two different elicitations.
  const calls = [alice.request('tools/call', { name: 'sign_in', arguments: { id: 'e-1' } }, 1), bob.request('tools/call', { name: 'sign_in', arguments: { id: 'e-1' } }, 2)];
  const [aq, bq] = await Promise.all([alice.question('elicitation/create'), bob.question('elicitation/create')]);
  alice.session.receive({ jsonrpc: '2.0', id: (aq.message as JsonRpcRequest).id, result: { action: 'accept' } });
  bob.session.receive({ jsonrpc: '2.0', id: (bq.message as JsonRpcRequest).id, result: { action: 'accept' } });
  await Promise.all(calls);
  for (const [host, callId] of [[alice, 1], [bob, 2]] as const) {
    assert.deepEqual(completions(host), [{ message: { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: 'e-1' } }, related: callId }]);
  }

  // An id no host received is dropped (before, a per-session upstream's notification went to its owner whatever it said).
  await alice.request('tools/call', { name: 'ghost', arguments: {} });
  await settle();
  assert.equal(completions(alice).length, 1);
  await gateway.close();
});

test('shared: a completion reaches only the host that received the elicitation or the -32042, and -32042 reaches the host unchanged', async () => {
  const up = fakeUpstreamFactory({ sign_in: signIn, needs_sign_in: needsSignIn });
  const gateway = createGateway(config([spec('desk', 'shared')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const alice = await connectHost(gateway, URL_HOST);
  const bob = await connectHost(gateway, URL_HOST);

  const call = alice.request('tools/call', { name: 'sign_in', arguments: { id: 'e-alice' } }, 'a1');
  const question = await alice.question('elicitation/create');
  alice.session.receive({ jsonrpc: '2.0', id: (question.message as JsonRpcRequest).id, result: { action: 'accept' } });
  await call;
  assert.deepEqual(completions(alice).map((s) => s.related), ['a1']);

  const failed = await bob.request('tools/call', { name: 'needs_sign_in', arguments: { id: 'e-bob' } }, 'b1');
  assert.ok('error' in failed);
  assert.equal(JSON.stringify(failed.error), JSON.stringify(urlRequired('e-bob')), 'code, message and data byte-identical');
  await bob.waitFor((s) => 'method' in s.message && s.message.method === 'notifications/elicitation/complete');
  await settle();
  assert.deepEqual(completedIds(alice), ['e-alice']);
  assert.deepEqual(completedIds(bob), ['e-bob']);
  assert.equal(completions(bob)[0]?.related, undefined, 'the call ended with the error: the completion goes outside any call');
  await gateway.close();
});

test('-32042 to a host that cannot take URL mode is still relayed unchanged, and its completion is dropped', async () => {
  const up = fakeUpstreamFactory({ needs_sign_in: needsSignIn });
  const gateway = createGateway(config([spec('desk', 'shared')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const formOnly = await connectHost(gateway, { elicitation: { form: {} } });
  const older = await connectHost(gateway, { elicitation: {} }, '2025-06-18');
  for (const host of [formOnly, older]) {
    const failed = await host.request('tools/call', { name: 'needs_sign_in', arguments: { id: 'e-x' } });
    assert.ok('error' in failed);
    assert.equal(JSON.stringify(failed.error), JSON.stringify(urlRequired('e-x')));
  }
  await settle();
  assert.deepEqual([...completions(formOnly), ...completions(older)], []);
  await gateway.close();
});

test('a closed host session takes its pending URL elicitations with it', async () => {
  const up = fakeUpstreamFactory({
    needs_sign_in: (call) => {
      throw new FakeRpcError(urlRequired(String((call.params?.arguments as JsonObject).id)));
    },
  });
  const gateway = createGateway(config([spec('desk', 'shared')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const alice = await connectHost(gateway, URL_HOST);
  const bob = await connectHost(gateway, URL_HOST);
  await alice.request('tools/call', { name: 'needs_sign_in', arguments: { id: 'e-gone' } });
  await bob.request('tools/call', { name: 'needs_sign_in', arguments: { id: 'e-bob' } });
  await alice.session.close();
  const shared = up.servers[0];
  await shared?.notify('notifications/elicitation/complete', { elicitationId: 'e-gone' });
  await shared?.notify('notifications/elicitation/complete', { elicitationId: 'e-bob' });
  await bob.waitFor((s) => 'method' in s.message && s.message.method === 'notifications/elicitation/complete');
  await settle();
  assert.deepEqual(completedIds(bob), ['e-bob']);
  assert.deepEqual(completedIds(alice), []);
  await gateway.close();
});
