/**
 * @module scripts/conformance/targets: starts what the suite runs against: the gateway (a fixture behind it) or a
 * fixture alone over HTTP. Two fixtures: the conformance fixture (both eras; the gateway spawns it over stdio) and
 * the modern one (2026-07-28 only, stateless, over HTTP).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProcess, waitForLine } from './processes.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURE_MAIN = join(ROOT, 'test/fixtures/conformance-upstream/main.ts');
export const MODERN_FIXTURE_MAIN = join(ROOT, 'test/fixtures/conformance-modern-upstream/main.ts');
/** tsx's ESM loader as an absolute URL: works for `--import` whatever the child's working directory is. */
const TSX_LOADER = import.meta.resolve('tsx');
/**
 * The fixture as `npm run build` compiles it. The gateway spawns it over stdio for each upstream session, and a
 * 2026-07-28 host gets a session per capability set: compiled, it starts in half the time tsx takes (about 0.3 s
 * instead of 0.7 s), which the suite's short stream probes notice. Like the gateway itself, it runs from dist/.
 */
const COMPILED_FIXTURE_MAIN = join(ROOT, 'dist/test/fixtures/conformance-upstream/main.js');

/** Node arguments that run the conformance fixture: compiled when built, else through tsx. */
function fixtureArgs() {
  return existsSync(COMPILED_FIXTURE_MAIN) ? [COMPILED_FIXTURE_MAIN] : ['--import', TSX_LOADER, FIXTURE_MAIN];
}

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

/** The modern fixture (2026-07-28 only) over Streamable HTTP on an ephemeral loopback port. */
export async function startModernDirect({ logPath }) {
  const proc = startProcess('modern-fixture', TARGET_NODE, ['--import', TSX_LOADER, MODERN_FIXTURE_MAIN, '--http', '127.0.0.1:0'], {
    cwd: ROOT,
    logPath,
  });
  const [, url] = await waitForLine(proc, /conformance-modern-upstream listening on (http:\/\/\S+\/mcp)/, READY_TIMEOUT_MS);
  return { url, processes: [proc] };
}

/** The gateway config: one upstream, the fixture over stdio. JSON strings are valid YAML scalars. */
export function gatewayConfig() {
  const args = fixtureArgs().map((arg) => JSON.stringify(arg)).join(', ');
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

/**
 * The config of the 2026-07-28 legs. The suite is the only host and answers every question itself, so questions go
 * to the host (`route: host`; the default would hand a lone-boolean confirmation to an operator).
 * - `legacy`: the conformance fixture over stdio, pinned `era: legacy` (it serves both eras; pinned, its questions
 *   are real mid-call server requests the gateway must turn into `input_required` for a 2026-07-28 host);
 * - `modern`: the modern fixture over HTTP at `upstreamUrl`, pinned `era: modern`.
 */
export function modernLegConfig(upstream, upstreamUrl) {
  const lines = [
    `# Written by scripts/conformance.mjs: the ${upstream === 'modern' ? 'modern (2026-07-28) fixture' : 'conformance fixture, spoken to as legacy'} as the single upstream.`,
    'listen: 127.0.0.1:0',
    'questions: { route: host }',
    'upstreams:',
    '  fixture:',
  ];
  if (upstream === 'modern') {
    lines.push(`    url: ${JSON.stringify(upstreamUrl)}`, '    era: modern');
  } else {
    const args = fixtureArgs().map((arg) => JSON.stringify(arg)).join(', ');
    lines.push(`    command: ${JSON.stringify(TARGET_NODE)}`, `    args: [${args}]`, '    era: legacy');
  }
  return [...lines, ''].join('\n');
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

/**
 * `switchboard serve` with a generated config (a copy goes to `resultsDir`); ready once it prints its URL and /healthz
 * answers 200. `config` defaults to the existing legs' one; `name` keeps the files of several gateways apart.
 */
export async function startGateway({ configDir, resultsDir, logPath, config = gatewayConfig(), name = 'switchboard' }) {
  const configPath = join(configDir, `${name}.yaml`);
  await writeFile(configPath, config);
  await writeFile(join(resultsDir, `${name}.yaml`), config);
  const proc = startProcess(
    name === 'switchboard' ? 'gateway' : name,
    TARGET_NODE,
    [join(ROOT, 'bin/switchboard.mjs'), 'serve', '--config', configPath, '--listen', '127.0.0.1:0'],
    { cwd: ROOT, logPath },
  );
  const [, url] = await waitForLine(proc, /Switchboard listening on (http:\/\/\S+\/mcp)/, READY_TIMEOUT_MS);
  await waitForHealth(url, READY_TIMEOUT_MS);
  return { url, processes: [proc] };
}
