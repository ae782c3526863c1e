/**
 * @module e2e/harness/child: spawns a test process in its own process group, waits (bounded) for its ready line,
 * keeps its output for failure messages, and stops the whole group (TERM, then KILL) on cleanup.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface SpawnReadyOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Which stream prints the ready line. */
  readonly readyOn: 'stdout' | 'stderr';
  /** Matches the ready line; group 1 is what `ready` resolves to (usually a URL). */
  readonly ready: RegExp;
  /** Label for error messages. */
  readonly label: string;
  readonly timeoutMs?: number;
}

export interface ChildHandle {
  readonly pid: number;
  /** Group 1 of the ready line. */
  readonly value: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
  hasExited(): boolean;
  /** Stops the process group; resolves once the leader has exited. Safe to call twice. */
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
// Last resort if a test file dies without running its cleanup: no process group outlives the runner.
process.once('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/** Kills `child`'s group: TERM, and KILL after `graceMs`; resolves when the leader exited. */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs = 3_000): Promise<void> {
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  // Stragglers of the group (e.g. an upstream the leader spawned) get no grace once the leader is gone.
  if (child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already empty
    }
  }
  live.delete(child);
}

export async function spawnReady(options: SpawnReadyOptions): Promise<ChildHandle> {
  const child = spawn(options.command, [...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  live.add(child);
  let output = '';
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stream = options.readyOn === 'stdout' ? child.stdout : child.stderr;
  if (!stream || child.pid === undefined) throw new Error(`${options.label}: spawn failed`);
  const pid = child.pid;
  const timeoutMs = options.timeoutMs ?? 15_000;

  const value = await new Promise<string>((resolve, reject) => {
    let pending = '';
    let settled = false;
    const timer = setTimeout(() => settle(() => reject(failure(`no ready line within ${timeoutMs} ms`))), timeoutMs);
    function settle(action: () => void): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.off('data', onData);
      action();
    }
    function failure(why: string): Error {
      return new Error(`${options.label}: ${why}\n--- output ---\n${output}`);
    }
    // A plain data listener (not readline, whose close() would pause the pipe and block the child).
    function onData(chunk: Buffer): void {
      pending += chunk.toString();
      const lines = pending.split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = options.ready.exec(line);
        if (match) return settle(() => resolve(match[1] ?? line));
      }
    }
    stream.on('data', onData);
    void exited.then((code) => settle(() => reject(failure(`exited (${code}) before it was ready`))));
  }).catch(async (error: unknown) => {
    await stopChild(child, exited);
    throw error;
  });

  let stopping: Promise<void> | undefined;
  return {
    pid,
    value,
    output: () => output,
    exited,
    hasExited: () => child.exitCode !== null || child.signalCode !== null,
    stop: () => (stopping ??= stopChild(child, exited)),
  };
}
