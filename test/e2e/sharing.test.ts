/** @module e2e/sharing.test: `sharing: per-session` gives each host session its own upstream process; `shared` gives all one. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import type { WireMessage } from './harness/sse-reader.js';
import { pidOf, toolText } from './harness/tool-results.js';
import { labStdio } from './harness/upstreams.js';
import { eventually, isAlive } from './harness/wait.js';

describe('upstream sharing modes (two lab upstreams behind one gateway)', () => {
  let gateway: RunningGateway;
  before(async () => {
    // Same tool names on both, so prefix-on-conflict exposes own_whoami and common_whoami.
    gateway = await startGateway({ upstreams: { own: labStdio({ sharing: 'per-session' }), common: labStdio({ sharing: 'shared' }) } });
  });
  after(() => gateway?.stop());

  async function whoami(host: RawHost, id: number, tool: string): Promise<number> {
    return pidOf(await host.call(id, 'tools/call', { name: tool }));
  }

  test('per-session: two host sessions are served by two processes, each kept for its session', async (t) => {
    const [a, b] = await Promise.all([RawHost.connect(gateway.url), RawHost.connect(gateway.url)]);
    t.after(() => Promise.all([a.close(), b.close()]).then(() => undefined));
    const [pidA, pidB] = await Promise.all([whoami(a, 1, 'own_whoami'), whoami(b, 1, 'own_whoami')]);
    assert.notEqual(pidA, pidB);
    assert.notEqual(pidA, gateway.process.pid);
    assert.equal(await whoami(a, 2, 'own_whoami'), pidA, 'the same session keeps its process');
    assert.equal(await whoami(b, 2, 'own_whoami'), pidB);
  });

  test('shared: two host sessions are served by the same process', async (t) => {
    const [a, b] = await Promise.all([RawHost.connect(gateway.url), RawHost.connect(gateway.url)]);
    t.after(() => Promise.all([a.close(), b.close()]).then(() => undefined));
    const [pidA, pidB] = await Promise.all([whoami(a, 1, 'common_whoami'), whoami(b, 1, 'common_whoami')]);
    assert.equal(pidA, pidB);
    assert.notEqual(pidA, await whoami(a, 2, 'own_whoami'), 'the shared process is not the per-session one');
  });

  test('per-session: ending the host session (DELETE) ends its upstream process', async () => {
    const host = await RawHost.connect(gateway.url);
    const pid = pidOf(await host.call(1, 'tools/call', { name: 'own_whoami' }));
    assert.equal(isAlive(pid), true);
    await host.close();
    assert.equal(await eventually(() => !isAlive(pid)), true, `upstream process ${pid} outlived its host session`);
  });

  test('shared: two hosts using the same progress token each get only their own progress', async (t) => {
    const [a, b] = await Promise.all([RawHost.connect(gateway.url), RawHost.connect(gateway.url)]);
    t.after(() => Promise.all([a.close(), b.close()]).then(() => undefined));
    const token = 'same-token';
    const [streamA, streamB] = await Promise.all([
      a.callTool(1, 'common_count', { n: 4, delayMs: 10 }, { progressToken: token }),
      b.callTool(1, 'common_count', { n: 6, delayMs: 10 }, { progressToken: token }),
    ]);
    const [messagesA, messagesB] = await Promise.all([streamA.rest(), streamB.rest()]);
    const progressOf = (messages: WireMessage[]) =>
      messages.filter((message) => message.method === 'notifications/progress').map((message) => message.params);
    assert.deepEqual(progressOf(messagesA), [1, 2, 3, 4].map((i) => ({ progressToken: token, progress: i, total: 4, message: `step ${i} of 4` })));
    assert.deepEqual(progressOf(messagesB), [1, 2, 3, 4, 5, 6].map((i) => ({ progressToken: token, progress: i, total: 6, message: `step ${i} of 6` })));
    assert.equal(toolText(messagesA.at(-1)), 'counted 4');
    assert.equal(toolText(messagesB.at(-1)), 'counted 6');
  });
});
