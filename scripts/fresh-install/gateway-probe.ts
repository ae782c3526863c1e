/** @module Starts a gateway as `switchboard serve` would run, waits for its listening line, checks /healthz (and, with the operator token, that the store is the embedded SQLite one), then stops it. */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

export interface ProbeOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The operator token file the gateway generates on loopback (data/operator-token), read once it listens. */
  tokenFile: string;
  /** How long the gateway may take to print its listening line. */
  timeoutMs: number;
}

export interface ProbeResult {
  /** The gateway's base URL. */
  url: string;
  /** /healthz without a credential. */
  health: unknown;
  /** The SQLite file the gateway opened, absolute. */
  storeFile: string;
  /** How the gateway exited after SIGTERM. */
  exitCode: number | null;
}

const LISTENING = /Switchboard listening on (http:\/\/\S+?)\/mcp\b/;
const DRIVER_MISSING = /bindings file|better_sqlite3\.node|NODE_MODULE_VERSION|invalid ELF header|better-sqlite3/i;
const KEEP = 4000;

export async function probeGateway(options: ProbeOptions): Promise<ProbeResult> {
  const child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout = (stdout + chunk).slice(-KEEP)));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-KEEP)));
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  const printed = () => `${stderr}${stdout}`.trim() || '(nothing)';
  try {
    const url = await new Promise<string>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`the gateway did not print its listening line within ${options.timeoutMs / 1000} s; it printed:\n${printed()}`)), options.timeoutMs);
      child.stdout.on('data', () => {
        const match = LISTENING.exec(stdout);
        if (match) {
          clearTimeout(timer);
          done(match[1] as string);
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        fail(new Error(`cannot start the gateway (${options.command}): ${error.message}`));
      });
      void exited.then((code) => {
        clearTimeout(timer);
        const hint = DRIVER_MISSING.test(printed())
          ? '\nthe SQLite driver (better-sqlite3) was not built for this Node: npm skipped its install script or the build failed; see allowScripts in package.json'
          : '';
        fail(new Error(`the gateway exited (code ${code}) before it was listening; it printed:\n${printed()}${hint}`));
      });
    });
    const health = await getJson(`${url}/healthz`);
    const token = (await readFile(resolve(options.cwd, options.tokenFile), 'utf8')).trim();
    const details = await getJson(`${url}/healthz`, token);
    const store = (details as { store?: { type?: unknown; where?: unknown } }).store;
    if (store?.type !== 'sqlite' || typeof store.where !== 'string') {
      throw new Error(`/healthz says the store is ${JSON.stringify(store)}, expected the embedded SQLite store`);
    }
    child.kill('SIGTERM');
    const exitCode = await withTimeout(exited, 15_000, 'the gateway did not stop within 15 s of SIGTERM');
    return { url, health, storeFile: resolve(options.cwd, store.where), exitCode };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

async function getJson(url: string, token?: string): Promise<unknown> {
  const response = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`GET ${url} answered 200 with a body that is not JSON: ${text.slice(0, 500)}`);
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
