/** @module incident-desk/testing/spawn-http: starts the real `incident-desk --http 127.0.0.1:0` and reads its URL from stderr. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

import { INCIDENT_DESK_BIN, REPO_ROOT } from './paths.js';

export interface HttpProcess {
  readonly url: string;
  /** Everything the process wrote to stdout (nothing is expected in HTTP mode). */
  readonly stdout: () => string;
  /** Everything the process wrote to stderr so far (its log). */
  readonly stderr: () => string;
  stop(): Promise<void>;
}

export async function spawnHttpIncidentDesk(extraArgs: string[] = [], env: Record<string, string> = {}): Promise<HttpProcess> {
  const child = spawn(process.execPath, [INCIDENT_DESK_BIN, '--http', '127.0.0.1:0', ...extraArgs], { cwd: REPO_ROOT, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stderr });
    lines.on('line', (line) => {
      const match = /^incident-desk listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`incident-desk exited (${code}) before listening`)));
  });
  return {
    url,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
