/** @module The CLI logger writes one line per entry and honours SWITCHBOARD_LOG. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { createStderrLogger, formatLogLine, loggerFromEnv, parseLogLevel } from './stderr-logger.js';

const at = new Date('2026-01-02T03:04:05.006Z');

function capture() {
  const lines: string[] = [];
  return { lines, sink: { write: (text: string) => void lines.push(text) } };
}

describe('stderr logger', () => {
  it('formats time, level, message and fields on one line', () => {
    assert.equal(
      formatLogLine(at, 'warn', 'upstream down', { name: 'desk', attempt: 3, error: 'spawn ENOENT\nat foo', skip: undefined }),
      '2026-01-02T03:04:05.006Z WARN  upstream down name=desk attempt=3 error="spawn ENOENT\\nat foo"\n',
    );
    assert.equal(formatLogLine(at, 'info', 'two\nlines'), '2026-01-02T03:04:05.006Z INFO  two\\nlines\n');
    assert.equal(formatLogLine(at, 'error', 'x', { obj: { a: 1 }, err: new Error('boom') }), '2026-01-02T03:04:05.006Z ERROR x obj="{\\"a\\":1}" err=boom\n');
  });

  it('redacts the credentials of every URL in the message and the fields (the last line of defence)', () => {
    const line = formatLogLine(at, 'warn', 'upstream down: fetch http://u:pw@h/mcp?key=K1 failed', { url: 'https://h/p?token=T2', detail: { to: 'http://a:b@h' } });
    for (const secret of ['pw', 'K1', 'T2', 'a:b']) assert.equal(line.includes(secret), false, line);
    assert.equal(
      line,
      '2026-01-02T03:04:05.006Z WARN  upstream down: fetch http://***@h/mcp?key=*** failed url="https://h/p?token=***" detail="{\\"to\\":\\"http://***@h\\"}"\n',
    );
  });

  it('drops entries below the level', () => {
    const { lines, sink } = capture();
    const logger = createStderrLogger({ level: 'warn', sink, clock: () => at });
    logger.log('debug', 'a');
    logger.log('info', 'b');
    logger.log('warn', 'c');
    logger.log('error', 'd');
    assert.deepEqual(lines.map((l) => l.trim().split(/\s+/)[2]), ['c', 'd']);
  });

  it('reads the level from SWITCHBOARD_LOG, case-insensitively, defaulting to info', () => {
    assert.equal(parseLogLevel('DEBUG'), 'debug');
    assert.equal(parseLogLevel('verbose'), undefined);
    const debug = capture();
    loggerFromEnv({ SWITCHBOARD_LOG: 'debug' }, debug.sink).log('debug', 'seen');
    assert.equal(debug.lines.length, 1);
    const dflt = capture();
    const logger = loggerFromEnv({}, dflt.sink);
    logger.log('debug', 'hidden');
    logger.log('info', 'shown');
    assert.equal(dflt.lines.length, 1);
  });

  it('warns once about an unknown SWITCHBOARD_LOG and uses info', () => {
    const { lines, sink } = capture();
    const logger = loggerFromEnv({ SWITCHBOARD_LOG: 'loud' }, sink);
    logger.log('debug', 'hidden');
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /WARN {2}SWITCHBOARD_LOG=loud is not one of debug\|info\|warn\|error; using info/);
  });
});
