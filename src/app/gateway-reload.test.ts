/** @module Tests of a reloaded configuration in the gateway core (design 016): upstreams added, removed and changed under live hosts; policy for new work. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject, JsonRpcNotification } from '../protocol/jsonrpc.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, connectHost, spec } from './testing/gateway-doubles.js';
import type { Sent } from './testing/gateway-doubles.js';

type FakeUpstreamFactory = ReturnType<typeof fakeUpstreamFactory>;

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

function upstreams(): Record<string, FakeUpstreamFactory> {
  return {
    a: fakeUpstreamFactory({
      ask: async (_call, server) => {
        await server.ask('elicitation/create', { message: 'go?', requestedSchema: { type: 'object', properties: {} } });
        return text('asked');
      },
      a_only: () => text('a'),
    }),
    b: fakeUpstreamFactory({ b_status: () => text('b') }),
    c: fakeUpstreamFactory({ c_new: () => text('c') }),
  };
}

const isNotification = (method: string) => (sent: Sent) => 'method' in sent.message && !('id' in sent.message) && sent.message.method === method;

async function toolNames(host: Awaited<ReturnType<typeof connectHost>>): Promise<string[]> {
  const listed = await host.request('tools/list');
  assert.ok('result' in listed, JSON.stringify(listed));
  return (listed.result.tools as JsonObject[]).map((tool) => String(tool.name)).sort();
}

test('a reload removes an upstream under a live call, adds one and leaves the unchanged shared one connected', async () => {
  const ups = upstreams();
  const gateway = createGateway(config([spec('a'), spec('b', 'shared')]), { logger: silentLogger, openTransport: (s) => (ups[s.name] as FakeUpstreamFactory).open() });
  await gateway.ready;
  const host = await connectHost(gateway, { elicitation: {} });
  assert.deepEqual(await toolNames(host), ['a_only', 'ask', 'b_status']);
  const call = host.request('tools/call', { name: 'ask', arguments: {} });
  await host.question('elicitation/create');
  const sharedSessions = ups.b?.servers.length;

  const changes = await gateway.reconfigure(config([spec('b', 'shared'), spec('c')]));

  assert.deepEqual(changes, { added: ['c'], removed: ['a'], changed: [] });
  const ended = await call;
  assert.ok('error' in ended, JSON.stringify(ended));
  assert.equal((ended.error.data as JsonObject | undefined)?.reason, 'GW_ERR_UPSTREAM_CLOSED');
  assert.match(ended.error.message, /upstream 'a' was removed from the configuration/);
  const cancelled = await host.waitFor(isNotification('notifications/cancelled'));
  assert.match(String((cancelled.message as JsonRpcNotification).params?.reason), /removed from the configuration/, 'the host is told why its question is void');
  await host.waitFor(isNotification('notifications/tools/list_changed'));
  await gateway.ready;
  await waitUntil(() => gateway.health().upstreams.find((u) => u.name === 'c')?.state === 'up');
  assert.deepEqual(await toolNames(host), ['b_status', 'c_new']);
  const fresh = await host.request('tools/call', { name: 'c_new', arguments: {} });
  assert.ok('result' in fresh, JSON.stringify(fresh));
  assert.equal(ups.b?.servers.length, sharedSessions, 'the unchanged shared upstream kept its session');
  assert.deepEqual(gateway.health().upstreams.map((u) => u.name), ['b', 'c']);
  await gateway.close();
});

test('a changed upstream is reconnected for its hosts; an unchanged per-session one keeps each host\'s session', async () => {
  const ups = upstreams();
  const gateway = createGateway(config([spec('a'), spec('c')]), { logger: silentLogger, openTransport: (s) => (ups[s.name] as FakeUpstreamFactory).open() });
  await gateway.ready;
  const host = await connectHost(gateway);
  assert.ok('result' in (await host.request('tools/call', { name: 'a_only', arguments: {} })));
  assert.ok('result' in (await host.request('tools/call', { name: 'c_new', arguments: {} })));
  const [aBefore, cBefore] = [ups.a?.servers.length ?? 0, ups.c?.servers.length ?? 0];

  const changes = await gateway.reconfigure(config([spec('a', 'per-session', { requestTimeoutMs: 9000 }), spec('c')]));

  assert.deepEqual(changes, { added: [], removed: [], changed: ['a'] });
  assert.ok('result' in (await host.request('tools/call', { name: 'a_only', arguments: {} })));
  assert.ok('result' in (await host.request('tools/call', { name: 'c_new', arguments: {} })));
  assert.ok((ups.a?.servers.length ?? 0) > aBefore, 'the changed upstream got a new session');
  assert.equal(ups.c?.servers.length, cBefore, 'the unchanged per-session upstream kept the host\'s session');
  await gateway.close();
});

test('a reloaded access policy holds for the next list and call; nothing changed tells hosts nothing', async () => {
  const ups = upstreams();
  const gateway = createGateway(config([spec('b', 'shared')]), { logger: silentLogger, openTransport: (s) => (ups[s.name] as FakeUpstreamFactory).open() });
  await gateway.ready;
  const host = await connectHost(gateway);
  await gateway.reconfigure(config([spec('b', 'shared')]));
  assert.equal(host.sent.filter(isNotification('notifications/tools/list_changed')).length, 0, 'the same configuration changes no list');

  const denying = { ...config([spec('b', 'shared')]), policy: { default: 'deny' as const, rules: [], answerers: [] } };
  await gateway.reconfigure(denying);
  await host.waitFor(isNotification('notifications/tools/list_changed'));
  assert.deepEqual(await toolNames(host), []);
  const refused = await host.request('tools/call', { name: 'b_status', arguments: {} });
  assert.ok('error' in refused, JSON.stringify(refused));
  await gateway.close();
});

async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(check(), 'the condition held in time');
}

test('an upstream removed while down is not retried any more; its backoff timer does nothing', async () => {
  const ups = upstreams();
  let attempts = 0;
  const gateway = createGateway(config([spec('broken'), spec('b', 'shared')]), {
    logger: silentLogger,
    openTransport: (s) => {
      if (s.name !== 'broken') return (ups[s.name] as FakeUpstreamFactory).open();
      attempts += 1;
      throw new Error('cannot start');
    },
  });
  await gateway.ready;
  assert.equal(gateway.health().upstreams.find((u) => u.name === 'broken')?.state, 'down');
  const tried = attempts;
  await gateway.reconfigure(config([spec('b', 'shared')]));
  await new Promise((resolve) => setTimeout(resolve, 300)); // past the retry delays of config() (50-200 ms)
  assert.equal(attempts, tried, 'no probe of a removed upstream');
  assert.deepEqual(gateway.health().upstreams.map((u) => u.name), ['b']);
  await gateway.close();
});
