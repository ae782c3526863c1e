/** @module scripts/conformance/targets: starts what the suite runs against: the gateway (fixture behind it over stdio) or the fixture alone over HTTP. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProcess, waitForLine } from './processes.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURE_MAIN = join(ROOT, 'test/fixtures/conformance-upstream/main.ts');
/** tsx's ESM loader as an absolute URL: works for `--import` whatever the child's working directory is. */
const TSX_LOADER = import.meta.resolve('tsx');

const READY_TIMEOUT_MS = 60_000;

/** The Node that runs the fixture and the gateway: the machine's (the suite alone runs on Node 22). */
export const TARGET_NODE = process.execPath;

/** The fixture over Streamable HTTP on an ephemeral loopback port. */
export async function startDirect({ logPath }) {
  const proc = startProcess('fixture', TARGET_NODE, ['--import', TSX_LOADER, FIXTURE_MAIN, '--http', '127.0.0.1:0'], {
    cwd: ROOT,
    logPath,
  });
  const [, url] = await waitForLine(proc, /conformance-upstream listening on (http:\/\/\S+\/mcp)/, READY_TIMEOUT_MS);
  return { url, processes: [proc] };
}

/** The gateway config: one upstream, the fixture over stdio. JSON strings are valid YAML scalars. */
export function gatewayConfig() {
  const args = ['--import', TSX_LOADER, FIXTURE_MAIN].map((arg) => JSON.stringify(arg)).join(', ');
  return [
    '# Written by scripts/conformance.mjs: the conformance fixture as the single upstream.',
    'listen: 127.0.0.1:0',
    'upstreams:',
    '  fixture:',
    `    command: ${JSON.stringify(TARGET_NODE)}`,
    `    args: [${args}]`,
    '',
  ].join('\n');
}

async function waitForHealth(baseUrl, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(new URL('/healthz', baseUrl), { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`gateway: GET /healthz did not answer 200 within ${timeoutMs} ms (last: ${last})`);
}

/** `switchboard serve` with a generated config (a copy goes to `resultsDir`); ready once it prints its URL and /healthz answers 200. */
export async function startGateway({ configDir, resultsDir, logPath }) {
  const configPath = join(configDir, 'switchboard.yaml');
  await writeFile(configPath, gatewayConfig());
  await writeFile(join(resultsDir, 'switchboard.yaml'), gatewayConfig());
  const proc = startProcess(
    'gateway',
    TARGET_NODE,
    [join(ROOT, 'bin/switchboard.mjs'), 'serve', '--config', configPath, '--listen', '127.0.0.1:0'],
    { cwd: ROOT, logPath },
  );
  const [, url] = await waitForLine(proc, /Switchboard listening on (http:\/\/\S+\/mcp)/, READY_TIMEOUT_MS);
  await waitForHealth(url, READY_TIMEOUT_MS);
  return { url, processes: [proc] };
}
