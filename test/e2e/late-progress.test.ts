/**
 * @module e2e/late-progress.test: an upstream that keeps sending progress after a call was cancelled, behind
 * `switchboard stdio`; the host reuses the progress token for its next call, which must see only its own progress.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { writeConfigFile } from './harness/gateway.js';
import { connectSdkStdio } from './harness/sdk-host.js';
import { labStdio } from './harness/upstreams.js';
import { eventually } from './harness/wait.js';

const TOKEN = 'reused-token';

test('progress of a cancelled call never reaches the host, not even under the token its next call reuses', async (t) => {
  const config = await writeConfigFile({ upstreams: { lab: labStdio() } });
  t.after(() => config.remove());
  const host = await connectSdkStdio(config.path, {});
  t.after(() => host.close());
  const progressFrom = (start: number) =>
    host.wire.slice(start).flatMap((entry) => (entry.direction === 'gateway->host' && entry.message.method === 'notifications/progress' ? [entry.message.params] : []));

  const abort = new AbortController();
  const first = host.client.callTool(
    { name: 'count', arguments: { n: 1_000, delayMs: 20, lingerAfterCancel: 3 }, _meta: { progressToken: TOKEN } },
    { signal: abort.signal, timeout: 30_000 },
  );
  const settled = first.then(() => 'answered', () => 'rejected');
  assert.ok(await eventually(() => progressFrom(0).length > 0, 20_000), `the first call is running\n${host.stderr()}`);
  abort.abort('the host gave up');
  assert.equal(await settled, 'rejected');
  // The gateway still answers the cancelled call (-32800): what it relayed before that was the call's while it ran.
  const firstId = host.wire.find((entry) => entry.direction === 'host->gateway' && entry.message.method === 'tools/call')?.message.id;
  const answered = () => host.wire.findIndex((entry) => entry.direction === 'gateway->host' && entry.message.id === firstId && entry.message.method === undefined);
  assert.ok(await eventually(() => answered() !== -1, 20_000), 'the gateway ends the cancelled call');
  assert.equal(host.wire[answered()]?.message.error?.code, -32800);
  const afterCancel = answered() + 1;
  const second = await host.client.callTool({ name: 'count', arguments: { n: 2, delayMs: 5 }, _meta: { progressToken: TOKEN } }, { timeout: 30_000 });
  assert.deepEqual(second.content, [{ type: 'text', text: 'counted 2' }]);
  const report = (await host.client.callTool({ name: 'was_cancelled', arguments: {} })).structuredContent as Record<string, unknown>;
  assert.equal(report.lateSent, 3, `the upstream sent the cancelled call's late progress first: ${JSON.stringify(report)}`);

  assert.deepEqual(
    progressFrom(afterCancel),
    [1, 2].map((i) => ({ progressToken: TOKEN, progress: i, total: 2, message: `step ${i} of 2` })),
    'the second call sees only its own progress',
  );
});
