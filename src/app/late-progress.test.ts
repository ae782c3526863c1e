/** @module Tests that progress an upstream sends for a call that has ended (answered, cancelled, timed out) never reaches a host. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject, JsonRpcMessage } from '../protocol/jsonrpc.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import type { FakeUpstream, ToolHandler } from '../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import type { Host, Sent } from './testing/gateway-doubles.js';
import { config, connectHost, spec } from './testing/gateway-doubles.js';

const TOKEN = 'reused-token';

const progressSent = (host: Host): JsonObject[] =>
  host.sent.flatMap((s: Sent) => ('method' in s.message && s.message.method === 'notifications/progress' ? [s.message.params ?? {}] : []));

const tokenOf = (call: JsonRpcMessage): unknown => ('params' in call ? (call.params?._meta as JsonObject | undefined)?.progressToken : undefined);

/**
 * `linger` keeps its call open until told, and gives the test a way to send progress under its token later;
 * `report` sends one progress of its own, then answers, after the lingering call's late progress went out.
 */
function lingeringUpstream(): { tools: Record<string, ToolHandler>; release: () => void } {
  let lingerToken: unknown;
  let server: FakeUpstream | undefined;
  let release: () => void = () => undefined;
  const late = async (): Promise<void> => {
    for (const progress of [7, 8]) await server?.notify('notifications/progress', { progressToken: lingerToken as number, progress, message: 'late' });
  };
  const tools: Record<string, ToolHandler> = {
    linger: async (call, up) => {
      lingerToken = tokenOf(call);
      server = up;
      await up.notify('notifications/progress', { progressToken: lingerToken as number, progress: 1, message: 'first call' });
      await new Promise<void>((resolve) => (release = resolve));
      return { content: [{ type: 'text', text: 'lingered' }] };
    },
    report: async (call, up) => {
      await late(); // before its own: the host must not take these for this call's progress
      await up.notify('notifications/progress', { progressToken: tokenOf(call) as number, progress: 1, message: 'second call' });
      return { content: [{ type: 'text', text: 'reported' }] };
    },
  };
  return { tools, release: () => release() };
}

for (const ending of ['cancelled', 'timed out'] as const) {
  test(`progress of a call the ${ending === 'cancelled' ? 'host cancelled' : 'gateway timed out'} is dropped; the next call under the same token sees only its own`, async () => {
    const upstream = lingeringUpstream();
    const up = fakeUpstreamFactory(upstream.tools);
    const timeout = ending === 'timed out' ? { requestTimeoutMs: 300 } : {};
    const gateway = createGateway(config([spec('desk', 'per-session', timeout)]), { logger: silentLogger, openTransport: () => up.open() });
    await gateway.ready;
    const host = await connectHost(gateway);
    const first = host.request('tools/call', { name: 'linger', arguments: {}, _meta: { progressToken: TOKEN } }, 'c1');
    await host.waitFor((s) => 'method' in s.message && s.message.method === 'notifications/progress');
    if (ending === 'cancelled') host.session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user' } });
    const ended = await first;
    assert.ok('error' in ended, JSON.stringify(ended));

    const second = await host.request('tools/call', { name: 'report', arguments: {}, _meta: { progressToken: TOKEN } }, 'c2');
    assert.ok('result' in second, JSON.stringify(second));
    assert.deepEqual(progressSent(host), [
      { progressToken: TOKEN, progress: 1, message: 'first call' },
      { progressToken: TOKEN, progress: 1, message: 'second call' },
    ]);
    upstream.release();
    await gateway.close();
  });
}

test('progress sent after the answer to its call is dropped', async () => {
  const upstream = lingeringUpstream();
  let quickToken: unknown;
  let server: FakeUpstream | undefined;
  const up = fakeUpstreamFactory({
    quick: (call, s) => {
      quickToken = tokenOf(call);
      server = s;
      return { content: [] };
    },
    ...upstream.tools,
  });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = await connectHost(gateway);
  assert.ok('result' in (await host.request('tools/call', { name: 'quick', arguments: {}, _meta: { progressToken: TOKEN } }, 'q1')));
  assert.equal(typeof quickToken, 'number', 'the upstream got a token of the gateway');
  await server?.notify('notifications/progress', { progressToken: quickToken as number, progress: 5, message: 'after the answer' });
  // A later call's answer comes behind it on the same connection: by then the late one was handled.
  assert.ok('result' in (await host.request('tools/call', { name: 'quick', arguments: {} }, 'q2')));
  assert.deepEqual(progressSent(host), []);
  await gateway.close();
});
