/**
 * @module e2e/config-reload.test: the live configuration of a real `switchboard serve` (design 016). SIGHUP adds an
 * upstream (probed, listed, hosts told); `switchboard reload` with a file that does not validate is refused with its
 * file:line and the running config stays; with `--watch`, saving a file that removes an upstream ends its call in
 * flight with a clear error and abandons its open question; /healthz and GET /api/config show the version each time.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';

import { stringify } from 'yaml';

import { type ChildHandle, spawnReady } from './harness/child.js';
import { type ConfigFile, gatewayEnv, TEST_CONFIG_DEFAULTS, writeConfigFile } from './harness/gateway.js';
import { OperatorApi } from './harness/operator-api.js';
import { REPO_ROOT, SWITCHBOARD_BIN } from './harness/paths.js';
import { RawHost } from './harness/raw-host.js';
import { toolNames } from './harness/tool-results.js';
import { labStdio } from './harness/upstreams.js';

const TOKEN = 'reload-e2e-operator-token';
const execFileAsync = promisify(execFile);

/** The settings every version of the file shares: tools always prefixed, questions to operators, the console on. */
const BASE = { naming: { strategy: 'prefix' }, console: { token: TOKEN }, questions: { route: 'operator' } };

interface ConfigInfo {
  version: string;
  loadedAt: string;
  generation: number;
  file: string;
}

describe('live configuration of a running gateway', () => {
  let file: ConfigFile;
  let gateway: ChildHandle;
  let api: OperatorApi;

  const write = (upstreams: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    writeFile(file.path, stringify({ ...TEST_CONFIG_DEFAULTS, ...BASE, upstreams, ...extra }));
  const healthConfig = async (): Promise<ConfigInfo> => {
    const reply = await api.send('GET', '/healthz');
    return (reply.json as unknown as { config: ConfigInfo }).config;
  };
  const upstreamStates = async (): Promise<Record<string, string>> => {
    const reply = await api.send('GET', '/healthz');
    const upstreams = (reply.json as unknown as { upstreams: { name: string; state: string }[] }).upstreams;
    return Object.fromEntries(upstreams.map((u) => [u.name, u.state]));
  };
  // Run without blocking this process: a blocked event loop would miss the gateway closing idle keep-alive
  // connections, and fetch would then reuse a closed one ("other side closed").
  const reloadCli = async (...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> => {
    try {
      const { stdout, stderr } = await execFileAsync(process.execPath, [SWITCHBOARD_BIN, 'reload', '--url', gateway.value, ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, SWITCHBOARD_CONSOLE_TOKEN: TOKEN },
        encoding: 'utf8',
        timeout: 20_000,
      });
      return { status: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: unknown; stdout?: string; stderr?: string };
      return { status: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? String(error) };
    }
  };

  before(async () => {
    file = await writeConfigFile({ ...BASE, upstreams: { one: labStdio({ sharing: 'shared' }) } });
    gateway = await spawnReady({
      label: 'switchboard serve --watch',
      command: process.execPath,
      args: [SWITCHBOARD_BIN, 'serve', '--config', file.path, '--listen', '127.0.0.1:0', '--watch'],
      cwd: REPO_ROOT,
      env: gatewayEnv({ SWITCHBOARD_LOG: 'info' }),
      readyOn: 'stdout',
      ready: /^Switchboard listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/,
      timeoutMs: 20_000,
    });
    api = new OperatorApi(gateway.value, TOKEN);
  });
  after(async () => {
    await gateway?.stop();
    await file?.remove();
  });

  test('SIGHUP adds an upstream: probed, in the lists, hosts told; the version moves on', async (t) => {
    const first = await healthConfig();
    assert.equal(first.generation, 1);
    assert.match(first.version, /^sha256:[0-9a-f]{12}$/);
    assert.deepEqual(await (await api.send('GET', '/api/config')).json, first as unknown as Record<string, unknown>, 'GET /api/config says what /healthz says');
    const host = await RawHost.connect(gateway.value);
    t.after(() => host.close());
    assert.ok(!toolNames(await host.call(1, 'tools/list')).includes('two_whoami'));
    const stream = await host.openGetStream();

    await write({ one: labStdio({ sharing: 'shared' }), two: labStdio({ sharing: 'shared' }) });
    process.kill(gateway.pid, 'SIGHUP');

    await stream.until((message) => message.method === 'notifications/tools/list_changed');
    let states: Record<string, string> = {};
    assert.ok(await eventuallyAsync(async () => (states = await upstreamStates()).two === 'up'), `two is up: ${JSON.stringify(states)}\n${gateway.output()}`);
    const second = await healthConfig();
    assert.equal(second.generation, 2);
    assert.notEqual(second.version, first.version);
    assert.ok(Date.parse(second.loadedAt) >= Date.parse(first.loadedAt));
    const names = toolNames(await host.call(2, 'tools/list'));
    assert.ok(names.includes('two_whoami') && names.includes('one_whoami'), names.join(', '));
    assert.ok(gateway.output().includes('config reloaded'), 'the log says so');
  });

  test('`switchboard reload` refuses a file that does not validate, with file:line, and the running config stays', async () => {
    const before = await healthConfig();
    await writeFile(file.path, `${stringify({ ...TEST_CONFIG_DEFAULTS, ...BASE })}upstreams:\n  one:\n    command: node\n    sharing: sometimes\n`);
    const refused = await reloadCli();
    assert.equal(refused.status, 1, `${refused.stdout}${refused.stderr}`);
    assert.match(refused.stderr, /refused; the running config stays/);
    assert.match(refused.stderr, /switchboard\.yaml:\d+: upstreams\.one\.sharing/, refused.stderr);
    assert.deepEqual(await healthConfig(), before, 'same version, same load');
    assert.equal((await upstreamStates()).two, 'up', 'the upstreams run as before');

    await write({ one: labStdio({ sharing: 'shared' }), two: labStdio({ sharing: 'shared' }) });
    const unchanged = await reloadCli();
    assert.equal(unchanged.status, 0, unchanged.stderr);
    assert.match(unchanged.stdout, /Config unchanged: sha256:/);
    const json = await reloadCli('--json');
    assert.equal(json.status, 0, json.stderr);
    assert.equal((JSON.parse(json.stdout) as { changed: boolean }).changed, false);
  });

  test('a removed upstream ends its call in flight with a clear error and abandons its open question', async (t) => {
    const host = await RawHost.connect(gateway.value);
    t.after(() => host.close());
    const known = await api.ids();
    const call = host.call(3, 'tools/call', { name: 'one_ask', arguments: { message: 'deploy?' } });
    const question = await api.awaitNewQuestion(known, 'state=pending,delivered', 10_000);

    // Saved, not signalled: the watch reloads it.
    await write({ two: labStdio({ sharing: 'shared' }) }, { http: { maxBodySize: '2mb' } });
    assert.ok(await eventuallyAsync(async () => (await healthConfig()).generation === 3), gateway.output());
    assert.match(gateway.output(), /config reloaded.*trigger[=":]+watch.*removed[=":]+one/);
    assert.match(gateway.output(), /next restart.*http\.maxBodyBytes/);

    const ended = await call;
    assert.ok(ended.error !== undefined, JSON.stringify(ended));
    assert.equal((ended.error as { data?: { reason?: string } }).data?.reason, 'GW_ERR_UPSTREAM_CLOSED');
    assert.match(String((ended.error as { message?: string }).message), /upstream 'one' was removed from the configuration/);
    let detail = await api.detail(question.id);
    assert.ok(await eventuallyAsync(async () => (detail = await api.detail(question.id)).question.state === 'abandoned'), JSON.stringify(detail.question));
    assert.match(JSON.stringify(detail.question.answeredBy), /removed from the configuration/);
    assert.deepEqual(Object.keys(await upstreamStates()), ['two']);
    assert.equal((await healthConfig()).generation, 3);
    assert.ok(!toolNames(await host.call(4, 'tools/list')).some((name) => name.startsWith('one_')));
  });
});

/** `check` until it holds or 10 s pass. */
async function eventuallyAsync(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
