/** @module Bench process control: start a target server, wait until its MCP endpoint answers, stop its whole process tree. */

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { processTree } from './proc-tree.js';

export interface SpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
  /** Either a fixed URL, or a pattern on stdout whose first group is the URL. */
  url: string | RegExp;
  startTimeoutMs: number;
}

export interface RunningTarget {
  url: string;
  pid: number;
  /** Set once the server process has exited: how, and the most telling line of its output. */
  exitStatus(): string | undefined;
  stop(): Promise<void>;
}

const live = new Set<number>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Last resort when the bench exits early: kill every tree it started. */
process.on('exit', () => {
  for (const root of live) {
    killAll(processTree(root), 'SIGKILL');
    killAll([-root], 'SIGKILL');
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/** A free loopback TCP port (for servers that cannot bind port 0 and report it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('could not pick a free port');
  return address.port;
}

async function endpointAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { method: 'GET', headers: { accept: 'text/event-stream' }, signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** The most telling line of a failed server's output: its first error message, else its last line. */
function failureDetail(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('at '));
  const thrown = lines.find((line) => /^\w*Error\b/.test(line));
  const mentioned = lines.findLast((line) => /error|fail/i.test(line));
  return (thrown ?? mentioned ?? lines.at(-1) ?? '').slice(0, 240);
}

export async function startTarget(spec: SpawnSpec): Promise<RunningTarget> {
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: { ...process.env, ...spec.env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let spawnError: string | undefined;
  child.on('error', (error) => void (spawnError = error.message));
  if (child.pid === undefined) throw new Error(`could not spawn ${spec.command}${spawnError ? `: ${spawnError}` : ''}`);
  const pid = child.pid;
  live.add(pid);
  let stdout = '';
  let stderr = '';
  let exit: string | undefined;
  child.stdout.on('data', (chunk: Buffer) => void (stdout = (stdout + chunk.toString()).slice(-8192)));
  child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-8192)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = `exited (${signal ?? `code ${code}`})`;
      live.delete(pid);
      resolve();
    }),
  );

  async function stop(): Promise<void> {
    const tree = processTree(pid);
    killAll([-pid], 'SIGTERM');
    killAll(tree, 'SIGTERM');
    await Promise.race([exited, sleep(3000)]);
    for (let i = 0; i < 30 && tree.some(alive); i++) await sleep(100);
    killAll([-pid], 'SIGKILL');
    killAll(tree.filter(alive), 'SIGKILL');
    live.delete(pid);
  }

  const describe = (why: string): string => {
    const detail = failureDetail(stderr) || failureDetail(stdout);
    return detail ? `${why}: ${detail}` : why;
  };
  const exitStatus = (): string | undefined => (exit === undefined ? undefined : describe(exit));

  const deadline = Date.now() + spec.startTimeoutMs;
  let url = typeof spec.url === 'string' ? spec.url : undefined;
  try {
    while (Date.now() < deadline && exit === undefined) {
      if (url === undefined && spec.url instanceof RegExp) url = spec.url.exec(stdout)?.[1];
      if (url !== undefined && (await endpointAnswers(url))) return { url, pid, exitStatus, stop };
      await sleep(100);
    }
    await sleep(200); // let the last output arrive
    throw new Error(describe(exit ?? `not ready after ${spec.startTimeoutMs} ms`));
  } catch (error) {
    await stop();
    throw error;
  }
}
