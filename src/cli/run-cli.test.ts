/** @module Dispatch, help and usage errors of `switchboard`, in process (the spawned checks are in cli.test.ts). */

import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';

import type { CliIo } from './cli-io.js';
import { CHECK_HELP, MAIN_HELP, SERVE_HELP, STDIO_HELP } from './help.js';
import { runCli } from './run-cli.js';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c: Buffer) => out.push(c.toString()));
  stderr.on('data', (c: Buffer) => err.push(c.toString()));
  const io: CliIo = { stdin: new PassThrough(), stdout, stderr, env: {}, untilSignal: () => new Promise(() => undefined) };
  const code = await runCli(argv, io);
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('runCli', () => {
  const helps: [string[], string][] = [
    [['--help'], MAIN_HELP],
    [['-h'], MAIN_HELP],
    [['help'], MAIN_HELP],
    [['serve', '--help'], SERVE_HELP],
    [['help', 'serve'], SERVE_HELP],
    [['stdio', '-h'], STDIO_HELP],
    [['check', '--help'], CHECK_HELP],
  ];
  for (const [argv, text] of helps) {
    it(`prints help for ${argv.join(' ')} on stdout and exits 0`, async () => {
      assert.deepEqual(await run(argv), { code: 0, stdout: text, stderr: '' });
    });
  }

  const usage: [string[], string][] = [
    [[], 'switchboard: missing command (try: switchboard --help)\n'],
    [['frob'], 'switchboard: unknown command "frob" (try: switchboard --help)\n'],
    [['--frob'], 'switchboard: unknown option --frob (try: switchboard --help)\n'],
    [['help', 'frob'], 'switchboard: unknown command "frob" (try: switchboard --help)\n'],
    [['serve', '--port', '1'], 'switchboard: serve: unknown option --port (try: switchboard serve --help)\n'],
    [['check', 'extra'], 'switchboard: check: unexpected argument extra (try: switchboard check --help)\n'],
    [['stdio', '--config'], 'switchboard: stdio: option -c, --config needs a value (try: switchboard stdio --help)\n'],
    [['serve', '--listen', '127.0.0.1'], 'switchboard: serve: --listen: invalid listen address "127.0.0.1": no port (use HOST:PORT, [IPv6]:PORT or :PORT)\n'],
  ];
  for (const [argv, line] of usage) {
    it(`answers "${argv.join(' ')}" with one line on stderr and exit 2`, async () => {
      assert.deepEqual(await run(argv), { code: 2, stdout: '', stderr: line });
    });
  }

  it('reports a config error as its one line and exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-cli-'));
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'upstreams:\n  desk:\n    command: node\n    sharing: sometimes\n');
    for (const command of ['serve', 'stdio', 'check']) {
      const result = await run([command, '--config', file]);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, new RegExp(`^switchboard: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: upstreams\\.desk\\.sharing: .+\\n$`));
    }
  });

  it('prints an error line with the credentials of any URL in it redacted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-cli-'));
    const file = join(dir, 'bad-url.yaml');
    await writeFile(file, 'upstreams:\n  vault:\n    url: ftp://alice:pw-S3cret@vault.example/mcp?api_key=K3Y-S3cret\n');
    const result = await run(['check', '--config', file]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr.includes('S3cret'), false, result.stderr);
    assert.match(result.stderr, /ftp:\/\/\*\*\*@vault\.example\/mcp\?api_key=\*\*\*/);
  });

  it('check prints a failed upstream\'s reason without the credentials of its URL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-cli-'));
    const file = join(dir, 'vault.yaml');
    // fetch refuses a URL with credentials before connecting, naming the URL: nothing needs to listen.
    await writeFile(file, 'upstreams:\n  vault:\n    url: http://alice:pw-S3cret@127.0.0.1:9/mcp?api_key=K3Y-S3cret\n');
    const result = await run(['check', '--config', file]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^vault \(streamable-http\): FAILED\n {2}reason: .*http:\/\/\*\*\*@127\.0\.0\.1:9\/mcp\?api_key=\*\*\*/);
    assert.equal(`${result.stdout}${result.stderr}`.includes('S3cret'), false, result.stdout);
  });

  it('prints the version', async () => {
    const result = await run(['--version']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^switchboard \d+\.\d+\.\d+\n$/);
  });
});
