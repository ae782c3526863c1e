/** @module incident-desk/testing/raw-stdio: the real `incident-desk` over stdio with hand-written JSON-RPC lines (no SDK). */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

import { INCIDENT_DESK_BIN, REPO_ROOT } from './paths.js';

export type WireMessage = Record<string, unknown> & { id?: string | number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

export interface RawStdioPeer {
  send(message: Record<string, unknown>): void;
  /** The next message from the server (every stdout line must be one JSON-RPC message). */
  next(): Promise<WireMessage>;
  /** Everything the process wrote to stderr so far (its log). */
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>;
  close(): Promise<void>;
}

export function spawnRawStdio(args: string[] = [], env: Record<string, string> = {}): RawStdioPeer {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [INCIDENT_DESK_BIN, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const queue: WireMessage[] = [];
  const waiting: ((message: WireMessage) => void)[] = [];
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    const message = JSON.parse(line) as WireMessage;
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    send: (message) => void child.stdin.write(`${JSON.stringify(message)}\n`),
    next: () => {
      const queued = queue.shift();
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve));
    },
    stderr: () => stderr,
    exited,
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill(), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
