/** @module e2e/harness/gateway: writes a temporary YAML config and runs the real `switchboard serve` on an ephemeral port. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import { stringify } from 'yaml';

import { type ChildHandle, spawnReady } from './child.js';
import { REPO_ROOT, SWITCHBOARD_BIN } from './paths.js';
import type { UpstreamEntry } from './upstreams.js';

export interface GatewayConfig {
  readonly upstreams: Readonly<Record<string, UpstreamEntry>>;
  /** Any other top-level keys (naming, http, retry…). */
  readonly [key: string]: unknown;
}

export interface ConfigFile {
  readonly path: string;
  remove(): Promise<void>;
}

/**
 * What every test config starts from. Questions stay with the hosts (`route: host`) unless a test routes them
 * elsewhere: the translation tests pin what a host receives, or the cancel an upstream gets when the host
 * cannot take a question, which the default `host-then-operator` would hand to an operator instead. Questions
 * are kept in memory unless a test asks for the SQLite store.
 */
export const TEST_CONFIG_DEFAULTS = { listen: '127.0.0.1:0', questions: { route: 'host' }, store: { type: 'memory' } } as const;

/** Writes `config` as `switchboard.yaml` in a fresh temp folder. */
export async function writeConfigFile(config: GatewayConfig): Promise<ConfigFile> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-e2e-'));
  const path = join(dir, 'switchboard.yaml');
  await writeFile(path, stringify({ ...TEST_CONFIG_DEFAULTS, ...config }));
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface UpstreamHealth {
  name: string;
  transport: string;
  state: string;
  error?: string;
  [key: string]: unknown;
}

export interface Health {
  ready: boolean;
  upstreams: UpstreamHealth[];
}

export interface RunningGateway {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  readonly process: ChildHandle;
  /** `/healthz` with the operator token (the per-upstream detail); `{ token: false }`: as anyone sees it. */
  health(options?: { token?: false }): Promise<{ status: number; body: Health }>;
  /** The operator token: `console.token`, else the token file the gateway wrote on its first start. */
  operatorToken(): Promise<string>;
  /** What the gateway logged so far (for failure messages). */
  logs(): string;
  stop(): Promise<void>;
}

/** The environment every gateway child gets; logs stay on stderr, quiet unless a test asks for more. */
export function gatewayEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { SWITCHBOARD_LOG: 'warn', ...extra };
}

/**
 * `switchboard serve` on an existing config file (a fixed file, so a restart is the same instance); resolves once it
 * listens, on an ephemeral loopback port unless `listen` names one (an OpenID client's redirect URI must know it first).
 */
export function serveConfig(configPath: string, env?: Record<string, string>, listen = '127.0.0.1:0'): Promise<ChildHandle> {
  return spawnReady({
    label: 'switchboard serve',
    command: process.execPath,
    args: [SWITCHBOARD_BIN, 'serve', '--config', configPath, '--listen', listen],
    cwd: REPO_ROOT,
    env: gatewayEnv(env),
    readyOn: 'stdout',
    ready: /^Switchboard listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/,
    timeoutMs: 20_000,
  });
}

export async function startGateway(config: GatewayConfig, options: { env?: Record<string, string>; listen?: string } = {}): Promise<RunningGateway> {
  const file = await writeConfigFile(config);
  let child: ChildHandle;
  try {
    child = await serveConfig(file.path, options.env, options.listen);
  } catch (error) {
    await file.remove();
    throw error;
  }
  const url = child.value;
  const operatorToken = async (): Promise<string> => {
    const configured = (config.console as { token?: unknown } | undefined)?.token;
    if (typeof configured === 'string') return configured;
    const store = config.store as { type?: string; path?: string } | undefined;
    const base = store?.type === 'sqlite' && store.path !== undefined ? dirname(resolve(dirname(file.path), store.path)) : join(dirname(file.path), 'data');
    return (await readFile(join(base, 'operator-token'), 'utf8')).trim();
  };
  return {
    url,
    process: child,
    operatorToken,
    async health(options = {}) {
      const headers: Record<string, string> = options.token === false ? {} : { authorization: `Bearer ${await operatorToken()}` };
      const response = await fetch(new URL('/healthz', url), { headers });
      return { status: response.status, body: (await response.json()) as Health };
    },
    logs: () => child.output(),
    async stop() {
      await child.stop();
      await file.remove();
    },
  };
}
