/** @module Starts instance-child.ts in a process of its own and resolves once it joined; the test then kills it with SIGKILL. */

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./instance-child.ts', import.meta.url));

/** A process holding instance `id` of `schema`; resolves once it printed `joined` (rejects if it exits first). */
export function spawnInstance(url: string, schema: string, id: string, deadAfterMs: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, url, schema, id, String(deadAfterMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('joined')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`the instance process exited (${String(code)}) before it joined`)));
  });
}

/** Kills `child` as `kill -9` would, and resolves once it is gone. */
export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
