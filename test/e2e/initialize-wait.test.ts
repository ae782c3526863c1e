/**
 * @module e2e/initialize-wait.test: upstreams that take a moment to start. A host's `initialize` sent before their first
 * probe ended (`switchboard stdio` at once; `serve` while /healthz still says 503) is answered once it did: with the
 * upstreams' capabilities (`resources.subscribe`) and instructions, not a partial picture. One that comes up later
 * still tells the host its lists changed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { spawnReady } from './harness/child.js';
import { gatewayEnv, type Health, startGateway, writeConfigFile } from './harness/gateway.js';
import { CONFORMANCE_UPSTREAM_MAIN, LAB_UPSTREAM_MAIN, REPO_ROOT, SLOW_START_MAIN, SWITCHBOARD_BIN, TSX_FLAGS } from './harness/paths.js';
import { freePort } from './harness/ports.js';
import { RawHost } from './harness/raw-host.js';
import { connectSdkStdio } from './harness/sdk-host.js';
import { toolNames } from './harness/tool-results.js';
import { startIncidentDeskHttp, streamableHttpUpstream, type UpstreamEntry } from './harness/upstreams.js';

/** How long each upstream process waits before it serves: far longer than the gateway takes to read the host's initialize. */
const START_DELAY_MS = 2_500;

function slowStdio(main: string): UpstreamEntry {
  return { command: process.execPath, args: [...TSX_FLAGS, SLOW_START_MAIN, String(START_DELAY_MS), main], cwd: REPO_ROOT };
}

/** The lab (instructions, no resources) and the conformance fixture (resources with subscribe), both slow to start. */
const UPSTREAMS = { lab: slowStdio(LAB_UPSTREAM_MAIN), watch: slowStdio(CONFORMANCE_UPSTREAM_MAIN) };
const LAB_INSTRUCTIONS = '[lab] Test upstream: failure, progress, cancellation and list_changed cases.';

function assertComplete(capabilities: Record<string, unknown> | undefined, instructions: string | undefined): void {
  assert.deepEqual(capabilities?.resources, { listChanged: true, subscribe: true }, JSON.stringify(capabilities));
  assert.equal(instructions, LAB_INSTRUCTIONS);
}

test('switchboard stdio: initialize waits for the upstreams first probe and has resources.subscribe and the instructions', async (t) => {
  const config = await writeConfigFile({ upstreams: UPSTREAMS });
  t.after(() => config.remove());
  const host = await connectSdkStdio(config.path, {});
  t.after(() => host.close());
  assertComplete(host.client.getServerCapabilities() as Record<string, unknown> | undefined, host.client.getInstructions());
});

test('serve: initialize sent while /healthz is not ready yet is answered with what the first probes found', async (t) => {
  const config = await writeConfigFile({ upstreams: UPSTREAMS });
  t.after(() => config.remove());
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const starting = spawnReady({
    label: 'switchboard serve',
    command: process.execPath,
    args: [SWITCHBOARD_BIN, 'serve', '--config', config.path, '--listen', `127.0.0.1:${port}`],
    cwd: REPO_ROOT,
    env: gatewayEnv(),
    readyOn: 'stdout',
    ready: /^Switchboard listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/,
    timeoutMs: 60_000,
  });
  t.after(async () => (await starting.catch(() => undefined))?.stop());

  // The HTTP server listens before the upstreams are known: /healthz says 503 until their first probe ended.
  let health: { status: number; body: Health } | undefined;
  const deadline = Date.now() + 30_000;
  while (health === undefined && Date.now() < deadline) {
    const response = await fetch(`${base}/healthz`).catch(() => undefined);
    if (response) health = { status: response.status, body: (await response.json()) as Health };
    else await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(health?.status, 503, `the gateway is not ready yet: ${JSON.stringify(health)}`);
  assert.equal(health?.body.ready, false);

  const host = await RawHost.connect(`${base}/mcp`);
  t.after(() => host.close());
  const result = host.initializeResult;
  assertComplete(result.capabilities as Record<string, unknown> | undefined, result.instructions as string | undefined);
  await starting;
});

test('serve: an upstream that comes up after the host initialized brings notifications/tools/list_changed, and its tools follow', async (t) => {
  const port = await freePort();
  // Nothing listens at the desk's address yet: its first probe fails, and it is retried with backoff.
  const gateway = await startGateway({ upstreams: { remote: streamableHttpUpstream(`http://127.0.0.1:${port}/mcp`) }, retry: { initialDelay: '200ms', maxDelay: '1s' } });
  t.after(() => gateway.stop());
  const host = await RawHost.connect(gateway.url);
  t.after(() => host.close());
  assert.deepEqual(toolNames(await host.call(1, 'tools/list')), []);
  const standalone = await host.openGetStream();

  const desk = await startIncidentDeskHttp(`127.0.0.1:${port}`);
  t.after(() => desk.stop());
  const changed = await standalone.until((message) => message.method === 'notifications/tools/list_changed', 30_000);
  assert.equal(changed.method, 'notifications/tools/list_changed');
  assert.deepEqual(toolNames(await host.call(2, 'tools/list')).sort(), ['restart_service', 'summarize_incident']);
});
