/** @module The CLI logger honours SWITCHBOARD_LOG, and the commands write the log format their config asks for. */

import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import type { CliIo } from './cli-io.js';
import { runCli } from './run-cli.js';
import { loggerFromEnv, parseLogLevel } from './stderr-logger.js';

function capture() {
  const lines: string[] = [];
  return { lines, sink: { write: (text: string) => void lines.push(text) } };
}

describe('stderr logger', () => {
  it('reads the level from SWITCHBOARD_LOG, case-insensitively, defaulting to info', () => {
    assert.equal(parseLogLevel('DEBUG'), 'debug');
    assert.equal(parseLogLevel(' warn '), 'warn');
    assert.equal(parseLogLevel('verbose'), undefined);
    const debug = capture();
    loggerFromEnv({ SWITCHBOARD_LOG: 'debug' }, debug.sink).log('debug', 'seen');
    assert.equal(debug.lines.length, 1);
    const dflt = capture();
    const logger = loggerFromEnv({}, dflt.sink);
    logger.log('debug', 'hidden');
    logger.log('info', 'shown');
    assert.equal(dflt.lines.length, 1);
    assert.match(dflt.lines[0] ?? '', /^\d{4}-\d\d-\d\dT\S+Z INFO {2}shown\n$/);
  });

  it('warns once about an unknown SWITCHBOARD_LOG and uses info', () => {
    const { lines, sink } = capture();
    const logger = loggerFromEnv({ SWITCHBOARD_LOG: 'loud' }, sink);
    logger.log('debug', 'hidden');
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /WARN {2}SWITCHBOARD_LOG=loud is not one of debug\|info\|warn\|error; using info/);
  });

  it('writes JSON lines when the config asks for them', () => {
    const { lines, sink } = capture();
    loggerFromEnv({ SWITCHBOARD_LOG: 'warn' }, sink, 'json').log('warn', 'upstream down', { name: 'desk' });
    const entry = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    assert.deepEqual({ ...entry, time: typeof entry['time'] }, { level: 'warn', time: 'string', name: 'desk', msg: 'upstream down' });
  });
});

const DESK = fileURLToPath(new URL('../../bin/incident-desk.mjs', import.meta.url));

describe('the log format of the commands', () => {
  it('stdio writes its log as JSON lines when the config says log.format: json, and as text lines by default', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-log-'));
    for (const [format, pattern] of [
      ['json', /^\{"level":"info","time":"[^"]+","reason":"stdin closed","msg":"shutting down"\}$/m],
      ['text', /^\S+Z INFO {2}shutting down reason="stdin closed"$/m],
    ] as const) {
      const file = join(dir, `${format}.yaml`);
      await writeFile(file, `upstreams:\n  desk:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(DESK)}]\n${format === 'json' ? 'log:\n  format: json\n' : ''}`);
      const stdin = new PassThrough();
      const stderr = new PassThrough();
      const err: string[] = [];
      stderr.on('data', (c: Buffer) => err.push(c.toString()));
      const io: CliIo = { stdin, stdout: new PassThrough(), stderr, env: {}, untilSignal: () => new Promise(() => undefined) };
      const running = runCli(['stdio', '--config', file], io);
      stdin.end();
      assert.equal(await running, 0);
      await new Promise((resolve) => setImmediate(resolve));
      assert.match(err.join(''), pattern, format);
    }
  });
});
