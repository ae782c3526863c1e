/**
 * @module e2e/harness/cluster: several real `switchboard serve` processes on one PostgreSQL schema (each with its own
 * port, `cluster.advertise` and the shared secret), behind a real haproxy doing round robin with no stickiness.
 * Skipped (with the reason) without SWITCHBOARD_TEST_PG_URL or haproxy; CI provides both.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { stringify } from 'yaml';

import { type ChildHandle, spawnReady } from './child.js';
import { gatewayEnv } from './gateway.js';
import { REPO_ROOT, SWITCHBOARD_BIN } from './paths.js';
import { freePort } from './ports.js';
import type { UpstreamEntry } from './upstreams.js';

const PG_URL = process.env['SWITCHBOARD_TEST_PG_URL'] === '' ? undefined : process.env['SWITCHBOARD_TEST_PG_URL'];
const HAPROXY = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'].find((path) => existsSync(path));

/** Why the cluster tests cannot run here, or undefined when they can. */
export const clusterSkipReason: string | undefined =
  PG_URL === undefined
    ? 'no PostgreSQL: SWITCHBOARD_TEST_PG_URL is not set (scripts/test-postgres.sh run npm test starts one)'
    : HAPROXY === undefined
      ? 'no haproxy installed (apt-get install haproxy; .ci/run installs it)'
      : undefined;

/** The operator token every instance shares. */
export const CLUSTER_TOKEN = 'cluster-e2e-operator-token-0123456789';

export interface Member {
  readonly id: string;
  readonly port: number;
  /** This instance's own MCP endpoint (not through the balancer). */
  readonly url: string;
  readonly base: string;
  process: ChildHandle;
  /** Starts it again under the same id, port and config (after a stop or a kill). */
  start(): Promise<void>;
  /** SIGKILL: no draining, no leaving. */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit (it drains first). */
  terminate(): Promise<number | string>;
}

export interface RunningCluster {
  /** The balancer's MCP endpoint. */
  readonly url: string;
  readonly members: Member[];
  readonly schema: string;
  /** haproxy's process id (for CPU accounting). */
  readonly balancerPid: number;
  /** haproxy's output so far, and every member's. */
  logs(): string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  readonly upstreams: Readonly<Record<string, UpstreamEntry>>;
  readonly instances?: number;
  /** More top-level config for every instance (questions, http…); `cluster` keys are merged. */
  readonly config?: Record<string, unknown>;
  readonly deadAfter?: string;
  /** Instance ids are `<idPrefix>-1`, `<idPrefix>-2`… (default `gw`): two clusters on one database need different ones (an instance's advisory lock on its id spans the database). */
  readonly idPrefix?: string;
  /** SWITCHBOARD_LOG of every instance (default `info`: the tests read the `host session opened` lines). */
  readonly logLevel?: string;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function haproxyConfig(port: number, members: readonly { id: string; port: number }[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  retries 2',
    '  option redispatch',
    // SSE streams stay open between messages: without this, haproxy holds a question back ~200 ms, waiting for more.
    '  option http-no-delay',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend gateways',
    'backend gateways',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /healthz ver HTTP/1.1 hdr host 127.0.0.1',
    ...members.map((member) => `  server ${member.id} 127.0.0.1:${member.port} check inter 300 fall 2 rise 1`),
    '',
  ].join('\n');
}

/** Starts `instances` gateways (default 3) on a fresh schema and haproxy in front of them. */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  if (clusterSkipReason !== undefined || PG_URL === undefined || HAPROXY === undefined) throw new Error(clusterSkipReason);
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-cluster-'));
  const schema = `sb_cluster_${process.pid}_${randomBytes(4).toString('hex')}`;
  const secret = randomBytes(32).toString('base64url');
  const key = randomBytes(32).toString('base64');
  const count = options.instances ?? 3;
  const members: Member[] = [];
  for (let index = 1; index <= count; index += 1) {
    const id = `${options.idPrefix ?? 'gw'}-${index}`;
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const configPath = join(dir, `${id}.yaml`);
    const extra = options.config ?? {};
    await writeFile(
      configPath,
      stringify({
        listen: `127.0.0.1:${port}`,
        ...extra,
        upstreams: options.upstreams,
        store: { type: 'postgres', url: PG_URL, schema },
        console: { token: CLUSTER_TOKEN },
        requestState: { keys: [key] },
        cluster: { id, advertise: base, secret, deadAfter: options.deadAfter ?? '3s', drainTimeout: '10s', ...(extra['cluster'] as object | undefined) },
        log: { format: 'text' },
      }),
    );
    const spawn = (): Promise<ChildHandle> =>
      spawnReady({
        label: `switchboard serve ${id}`,
        command: process.execPath,
        args: [SWITCHBOARD_BIN, 'serve', '--config', configPath],
        cwd: REPO_ROOT,
        env: gatewayEnv({ SWITCHBOARD_LOG: options.logLevel ?? 'info' }),
        readyOn: 'stdout',
        ready: /^Switchboard listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/,
        timeoutMs: 30_000,
      });
    const member: Member = {
      id,
      port,
      base,
      url: `${base}/mcp`,
      process: undefined as unknown as ChildHandle,
      async start() {
        member.process = await spawn();
      },
      async kill() {
        process.kill(member.process.pid, 'SIGKILL');
        await member.process.exited;
      },
      async terminate() {
        process.kill(member.process.pid, 'SIGTERM');
        return member.process.exited;
      },
    };
    members.push(member);
  }
  // One at a time: the first migrates the schema (the others would wait on its lock anyway).
  for (const member of members) await member.start();
  const lbPort = await freePort();
  const lbConfig = join(dir, 'haproxy.cfg');
  await writeFile(lbConfig, haproxyConfig(lbPort, members));
  execFileSync(HAPROXY, ['-c', '-q', '-f', lbConfig]);
  // In verbose mode haproxy names its polling mechanism on stdout once it is set up.
  const balancer = await spawnReady({ label: 'haproxy', command: HAPROXY, args: ['-db', '-V', '-f', lbConfig], cwd: dir, readyOn: 'stdout', ready: /^(Using \S+ as the polling mechanism)/, timeoutMs: 10_000 });
  await waitForPort(lbPort, 10_000);
  return {
    url: `http://127.0.0.1:${lbPort}/mcp`,
    members,
    schema,
    balancerPid: balancer.pid,
    logs: () => [`--- haproxy ---\n${balancer.output()}`, ...members.map((member) => `--- ${member.id} ---\n${member.process.output()}`)].join('\n'),
    async stop() {
      await balancer.stop();
      await Promise.all(members.map((member) => member.process.stop()));
      await rm(dir, { recursive: true, force: true });
      const { Client } = await import('pg');
      const client = new Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => client.end());
    },
  };
}
