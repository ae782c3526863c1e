/**
 * @module e2e/orphaned-upstreams.test: a stdio upstream that ignores end-of-input outlives a gateway killed with SIGKILL;
 * the next start of the same config stops it and says so in the log (issue 11 item 10).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';

import type { ChildHandle } from './harness/child.js';
import { type ConfigFile, serveConfig, writeConfigFile } from './harness/gateway.js';
import { LAB_UPSTREAM_MAIN, TSX_FLAGS } from './harness/paths.js';
import { RawHost } from './harness/raw-host.js';
import { connectSdkStdio } from './harness/sdk-host.js';
import { pidOf } from './harness/tool-results.js';
import { labStdio } from './harness/upstreams.js';
import { eventually, isAlive } from './harness/wait.js';

const linuxOnly = process.platform !== 'linux' && 'reads /proc for process start times';

for (const store of [{ type: 'sqlite', path: './data/q.db' }, { type: 'memory' }] as const) {
  test(`the upstream a SIGKILLed gateway left running is stopped at the next start (store: ${store.type})`, { skip: linuxOnly }, async (t) => {
    const config: ConfigFile = await writeConfigFile({ upstreams: { lab: labStdio({ args: [...TSX_FLAGS, LAB_UPSTREAM_MAIN, '--ignore-end-of-input'] }) }, store });
    t.after(() => config.remove());
    const gateways: ChildHandle[] = [];
    let orphan = 0;
    t.after(async () => {
      if (orphan !== 0 && isAlive(orphan)) process.kill(orphan, 'SIGKILL');
      for (const gateway of gateways) await gateway.stop();
    });

    const first = await serveConfig(config.path);
    gateways.push(first);
    const host = await RawHost.connect(first.value, { capabilities: {} });
    orphan = pidOf((await (await host.callTool(1, 'whoami', {})).rest()).at(-1));
    assert.notEqual(orphan, first.pid);

    // Only the gateway is killed (not its process group): its upstream sees its stdin end, ignores it, and lives on.
    process.kill(first.pid, 'SIGKILL');
    assert.equal(await first.exited, 'SIGKILL');
    await host.close().catch(() => undefined);
    assert.ok(isAlive(orphan), 'the upstream outlived the gateway (the precondition of this test)');

    const second = await serveConfig(config.path);
    gateways.push(second);
    assert.ok(await eventually(() => !isAlive(orphan), 15_000), `the orphaned upstream ${orphan} still runs; the new gateway said:\n${second.output()}`);
    assert.match(second.output(), new RegExp(`WARN +stopped an orphaned upstream .* pid=${orphan} `), second.output());

    // The new gateway's own upstream serves as before.
    const again = await RawHost.connect(second.value, { capabilities: {} });
    t.after(() => again.close());
    const pid = pidOf((await (await again.callTool(1, 'whoami', {})).rest()).at(-1));
    assert.ok(isAlive(pid) && pid !== orphan);
    const record = join(dirname(config.path), 'data', 'upstream-processes', `gateway-${second.pid}.json`);
    assert.match(readFileSync(record, 'utf8'), new RegExp(`"pid":${pid},`), 'the new gateway records its upstream beside the store');

    // A clean stop closes the upstreams and removes the record.
    await again.close();
    await second.stop();
    assert.equal(existsSync(record), false, 'the record is gone after a clean stop');
  });
}

test('the upstream a SIGKILLed `switchboard stdio` left running is stopped when the host starts it again', { skip: linuxOnly }, async (t) => {
  const config: ConfigFile = await writeConfigFile({ upstreams: { lab: labStdio({ args: [...TSX_FLAGS, LAB_UPSTREAM_MAIN, '--ignore-end-of-input'] }) } });
  t.after(() => config.remove());
  let orphan = 0;
  t.after(() => {
    if (orphan !== 0 && isAlive(orphan)) process.kill(orphan, 'SIGKILL');
  });

  const first = await connectSdkStdio(config.path, {});
  t.after(() => first.close());
  const whoami = await first.client.callTool({ name: 'whoami', arguments: {} });
  orphan = (whoami.structuredContent as { pid: number }).pid;
  assert.ok(first.pid !== undefined && orphan !== first.pid);
  process.kill(first.pid, 'SIGKILL');
  assert.ok(await eventually(() => !isAlive(first.pid as number), 10_000), 'the gateway died');
  assert.ok(isAlive(orphan), 'the upstream outlived the gateway (the precondition of this test)');

  const second = await connectSdkStdio(config.path, {});
  t.after(() => second.close());
  assert.ok(await eventually(() => !isAlive(orphan), 15_000), `the orphaned upstream ${orphan} still runs; the new gateway said:\n${second.stderr()}`);
  assert.match(second.stderr(), new RegExp(`WARN +stopped an orphaned upstream .* pid=${orphan} `), second.stderr());
  assert.deepEqual((await second.client.listTools()).tools.some((tool) => tool.name === 'whoami'), true, 'the new gateway serves');
});
