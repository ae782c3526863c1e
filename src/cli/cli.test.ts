/** @module The real `switchboard` binary: bad config → one line + exit 1, --help, usage errors → exit 2, serve on port 0 + SIGTERM → exit 0. */

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

import { MAIN_HELP, SERVE_HELP } from './help.js';

const BIN = fileURLToPath(new URL('../../bin/switchboard.mjs', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function switchboard(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function tempDirWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bin-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('switchboard binary', () => {
  it('reports a bad ./switchboard.yaml as one line naming file, line and key, and exits 1', async () => {
    const dir = await tempDirWith({ 'switchboard.yaml': 'listen: 127.0.0.1:0\n\nupstreams:\n  desk:\n    command: node\n\n    sharing: sometimes\n' });
    const [check, serve] = await Promise.all([switchboard(['check'], dir), switchboard(['serve'], dir)]);
    for (const run of [check, serve]) {
      assert.equal(run.code, 1);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^switchboard: switchboard\.yaml:7: upstreams\.desk\.sharing: [^\n]+\n$/);
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    }
  });

  it('prints help on stdout and exits 0', async () => {
    const dir = await tempDirWith({});
    const [main, serve] = await Promise.all([switchboard(['--help'], dir), switchboard(['serve', '--help'], dir)]);
    assert.deepEqual(main, { code: 0, stdout: MAIN_HELP, stderr: '' });
    assert.deepEqual(serve, { code: 0, stdout: SERVE_HELP, stderr: '' });
  });

  it('answers an unknown command or flag with one line on stderr and exit 2', async () => {
    const dir = await tempDirWith({});
    const [command, flag] = await Promise.all([switchboard(['launch'], dir), switchboard(['check', '--verbose'], dir)]);
    assert.deepEqual(command, { code: 2, stdout: '', stderr: 'switchboard: unknown command "launch" (try: switchboard --help)\n' });
    assert.deepEqual(flag, { code: 2, stdout: '', stderr: 'switchboard: check: unknown option --verbose (try: switchboard check --help)\n' });
  });

  it('serve --listen 127.0.0.1:0 prints the real bound URL once ready, and exits 0 on SIGTERM', { timeout: 20_000 }, async (t) => {
    const dir = await tempDirWith({
      'gw.yaml': 'upstreams:\n  gone:\n    command: node\n    args: ["-e", "process.exit(3)"]\n',
    });
    const child = spawn(process.execPath, [BIN, 'serve', '--config', 'gw.yaml', '--listen', '127.0.0.1:0'], {
      cwd: dir,
      env: { ...process.env, SWITCHBOARD_LOG: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A failed assertion must not leave the gateway running (the test runner would wait for it forever).
    t.after(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
    let stdout = '';
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        // The first line only: the operator console line may come in the same chunk.
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n') + 1));
      });
      child.on('close', (code) => reject(new Error(`exited early with ${code}`)));
    });
    const match = /^Switchboard listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp\n$/.exec(line);
    assert.ok(match, line);
    const port = Number(match[1]);
    assert.ok(port > 0);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(((await health.json()) as { ready: boolean }).ready, true);
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
  });
});
