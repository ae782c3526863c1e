/**
 * @module scripts/fresh-install-check: installs this checkout as a new user would, in a temp folder, and starts it.
 * The tracked (and new, not ignored) files are copied there, `npm ci` runs with the npm under test, and the gateway
 * starts on the bundled switchboard.yaml (README's `npm start`, on a free port): /healthz must answer, the store must be
 * the embedded SQLite one, and its file must hold the schema, read through the driver that install built.
 *
 *   node --import tsx scripts/fresh-install-check.ts                the `node` and `npm` on PATH
 *   node --import tsx scripts/fresh-install-check.ts --node MAJOR   a pinned Node and the pinned npm 12 (scripts/node-versions.tsv)
 *   --keep                                                          leave the temp folder for a look
 */
import { execFile, spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { probeGateway } from './fresh-install/gateway-probe.js';
import { checkNodeFolder, checkNpmFolder, ensureInstalled, npmPack } from './toolchain/install.js';
import { findNodePin, findPin, parsePins } from './toolchain/pins.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START_TIMEOUT_MS = 120_000;

function say(line: string): void {
  console.log(`fresh-install: ${line}`);
}

function parseArgs(args: string[]): { major?: number; keep: boolean } {
  let major: number | undefined;
  let keep = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--keep') keep = true;
    else if (arg === '--node' && /^\d+$/.test(args[i + 1] ?? '')) major = Number(args[++i]);
    else throw new Error(`unknown argument ${JSON.stringify(arg)}; usage: fresh-install-check.ts [--node MAJOR] [--keep]`);
  }
  return major === undefined ? { keep } : { major, keep };
}

/** PATH (and nodedir) for the npm under test: the default one, or a pinned Node with npm 12 behind an `npm` shim. */
async function toolchainEnv(work: string, major: number | undefined): Promise<NodeJS.ProcessEnv> {
  if (major === undefined) return { ...process.env };
  const pins = parsePins(await readFile(join(ROOT, 'scripts', 'node-versions.tsv'), 'utf8'), 'scripts/node-versions.tsv');
  const cache = process.env.SWITCHBOARD_TOOLCHAIN_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'switchboard-toolchains');
  const nodeDir = await ensureInstalled(findNodePin(pins, major, process.platform, process.arch), cache, npmPack, checkNodeFolder);
  const npmDir = await ensureInstalled(findPin(pins, 'npm'), cache, npmPack, checkNpmFolder);
  const bin = join(work, 'bin');
  await mkdir(bin);
  // Lifecycle scripts that call `npm` (our prepare runs `npm run build`) reach the same npm through PATH.
  await writeFile(join(bin, 'npm'), `#!/bin/sh\nexec "${nodeDir}/bin/node" "${npmDir}/bin/npm-cli.js" "$@"\n`);
  await chmod(join(bin, 'npm'), 0o755);
  // The native driver builds against this Node's headers, whatever nodedir the machine's npm config names.
  return { ...process.env, PATH: `${bin}:${nodeDir}/bin:${process.env.PATH ?? ''}`, npm_config_nodedir: nodeDir };
}

/** Copies what a clone of this checkout would hold (tracked files, and new ones git does not ignore). */
async function copySources(target: string): Promise<number> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const files = [...new Set(stdout.split('\0').filter((file) => file !== ''))].filter((file) => existsSync(join(ROOT, file)));
  for (const file of files) {
    await mkdir(dirname(join(target, file)), { recursive: true });
    await copyFile(join(ROOT, file), join(target, file));
  }
  // Executable bits matter for bin/ and scripts/.
  await run('git', ['ls-files', '-s'], { cwd: ROOT }).then(async ({ stdout: staged }) => {
    for (const line of staged.split('\n')) {
      const match = /^100755 \S+ \d\t(.+)$/.exec(line);
      if (match && existsSync(join(target, match[1] as string))) await chmod(join(target, match[1] as string), 0o755);
    }
  });
  return files.length;
}

/** Runs a command in `cwd`, its output into `log`; a failure shows the log's end. */
async function step(name: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, log: string): Promise<string> {
  const started = Date.now();
  const output = await new Promise<string>((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    child.once('error', (error) => fail(new Error(`${name}: cannot run ${command}: ${error.message}`)));
    child.once('close', (code) => {
      void writeFile(log, text);
      if (code === 0) done(text);
      else fail(new Error(`${name} failed (exit code ${code}); the end of ${log}:\n${text.slice(-6000)}`));
    });
  });
  say(`${name}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return output;
}

async function main(): Promise<void> {
  const { major, keep } = parseArgs(process.argv.slice(2));
  const work = await mkdtemp(join(tmpdir(), 'switchboard-fresh-install-'));
  const app = join(work, 'app');
  try {
    const env = await toolchainEnv(work, major);
    const versions = await step('versions', 'sh', ['-c', 'echo "node $(node --version), npm $(npm --version)"'], work, env, join(work, 'versions.log'));
    say(`${versions.trim()}, in ${app}`);
    say(`copied ${await copySources(app)} files`);
    const install = await step('npm ci', 'npm', ['ci', '--no-audit', '--no-fund'], app, env, join(work, 'npm-ci.log'));
    for (const line of install.split('\n').filter((text) => /install-scripts|allowScripts/i.test(text))) say(`npm: ${line.trim()}`);
    const probe = await probeGateway({
      command: 'node',
      args: ['bin/switchboard.mjs', 'serve', '--config', 'switchboard.yaml', '--listen', '127.0.0.1:0'],
      cwd: app,
      env,
      tokenFile: join('data', 'operator-token'),
      timeoutMs: START_TIMEOUT_MS,
    });
    say(`gateway listened on ${probe.url}; /healthz ${JSON.stringify(probe.health)}; stopped with exit code ${probe.exitCode}`);
    if (probe.exitCode !== 0) throw new Error(`the gateway exited with code ${probe.exitCode} after SIGTERM`);
    // The file it made, read back through the driver this install built (under the same Node).
    const read = `const D = require('better-sqlite3'); const db = new D(process.argv[1], { readonly: true, fileMustExist: true });
      console.log(JSON.stringify({ app: db.pragma('application_id', { simple: true }), version: db.pragma('user_version', { simple: true }) }));`;
    const header = JSON.parse(await step('read the store', 'node', ['-e', read, probe.storeFile], app, env, join(work, 'store.log'))) as { app: number; version: number };
    if (header.app !== 0x53425153 || !(header.version >= 1)) throw new Error(`${probe.storeFile} is not a Switchboard store at a schema version: ${JSON.stringify(header)}`);
    say(`ok: ${probe.storeFile} is a question store at schema version ${header.version}`);
  } finally {
    if (keep) say(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`fresh-install: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
