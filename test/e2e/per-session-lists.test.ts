/**
 * @module e2e/per-session-lists.test: in per-session mode, a host that only lists spawns no upstream process of its
 * own (lists come from one list session per upstream, revision and capabilities); its first call spawns its own; the
 * upstream's list changes reach every host; `lists: per-session` keeps each host's lists its own session's.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { childPids } from './harness/processes.js';
import { RawHost } from './harness/raw-host.js';
import { pidOf, toolNames } from './harness/tool-results.js';
import { labStdio } from './harness/upstreams.js';
import { eventually } from './harness/wait.js';

const LIST_CHANGED = 'notifications/tools/list_changed';

/** The gateway's upstream processes, once the startup probe's has ended (it lists, then closes). */
async function settledChildren(gateway: RunningGateway, expected: number): Promise<number[]> {
  const settled = await eventually(() => childPids(gateway.process.pid).length === expected, 10_000);
  const pids = childPids(gateway.process.pid);
  assert.ok(settled, `expected ${expected} upstream process(es) of the gateway, found ${pids.length} (${pids.join(', ')})\n${gateway.logs()}`);
  return pids;
}

describe('per-session upstream: lists without a process (lab upstream over stdio)', () => {
  let folder: string;
  let toolsFile: string;
  let gateway: RunningGateway;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'sb-lists-'));
    toolsFile = join(folder, 'tools.txt');
    await writeFile(toolsFile, 'alpha\n');
    gateway = await startGateway({ upstreams: { lab: labStdio({ sharing: 'per-session', env: { LAB_TOOLS_FILE: toolsFile, LAB_PID_TOOL: '1' } }) } });
  });
  after(async () => {
    await gateway?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  test('hosts that only list share one list process; a host\'s first call spawns its own; list changes reach every host', async (t) => {
    await settledChildren(gateway, 0);
    const hosts = await Promise.all([1, 2, 3].map(() => RawHost.connect(gateway.url)));
    t.after(() => Promise.all(hosts.map((host) => host.close())).then(() => undefined));
    const lists = await Promise.all(hosts.map(async (host) => toolNames(await host.call(1, 'tools/list'))));
    const [listPid] = await settledChildren(gateway, 1);
    for (const names of lists) {
      assert.ok(names.includes('alpha') && names.includes('whoami'), names.join(', '));
      // Every host was shown the one list session's tools, named after its process.
      assert.ok(names.includes(`pid_${String(listPid)}`), `${names.join(', ')} (list process ${String(listPid)})`);
    }

    const [first, second, third] = hosts as [RawHost, RawHost, RawHost];
    const own = pidOf(await first.call(2, 'tools/call', { name: 'whoami' }));
    assert.notEqual(own, listPid, 'a call runs on the host\'s own upstream process, not the list process');
    assert.deepEqual((await settledChildren(gateway, 2)).sort(), [listPid, own].sort());

    const streams = await Promise.all([second.openGetStream(), third.openGetStream()]);
    // Written beside it and renamed over it: the lab polls the file, and a write in place could be seen half done
    // (truncated, so empty), which is a list change of its own and would race the one this test waits for.
    await writeFile(`${toolsFile}.next`, 'alpha\nbeta\n');
    await rename(`${toolsFile}.next`, toolsFile);
    await Promise.all(streams.map((stream) => stream.until((message) => message.method === LIST_CHANGED)));
    for (const host of [second, third]) assert.ok(toolNames(await host.call(3, 'tools/list')).includes('beta'));
    assert.equal(childPids(gateway.process.pid).length, 2, 'listing again spawned nothing');
  });
});

describe('per-session upstream with `lists: per-session`', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway({ upstreams: { lab: labStdio({ sharing: 'per-session', lists: 'per-session', env: { LAB_PID_TOOL: '1' } }) } });
  });
  after(() => gateway?.stop());

  test('each host lists its own session\'s tools, from a process of its own', async (t) => {
    await settledChildren(gateway, 0);
    const hosts = await Promise.all([1, 2].map(() => RawHost.connect(gateway.url)));
    t.after(() => Promise.all(hosts.map((host) => host.close())).then(() => undefined));
    const lists = await Promise.all(hosts.map(async (host) => toolNames(await host.call(1, 'tools/list'))));
    const pids = await settledChildren(gateway, 2);
    const shown = lists.map((names) => names.filter((name) => name.startsWith('pid_')));
    assert.deepEqual(shown.flat().sort(), pids.map((pid) => `pid_${String(pid)}`).sort(), 'each host saw its own process\'s tool');
    const whoami = await Promise.all(hosts.map(async (host, index) => pidOf(await host.call(2, 'tools/call', { name: 'whoami' })) === Number(shown[index]?.[0]?.slice(4))));
    assert.deepEqual(whoami, [true, true], 'each host\'s calls go to the process whose tools it was shown');
  });
});
