/** @module Tests of the pino logger: the text line as before, JSON lines, child bindings, levels and redaction in both formats. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { LogFields, LogLevel } from '../core/log.js';
import { loggerFrom, silentLogger } from '../core/log.js';
import type { LogFormat } from './logger.js';
import { createLogger } from './logger.js';

const at = new Date('2026-01-02T03:04:05.006Z');

function capture(format: LogFormat, level?: LogLevel) {
  const lines: string[] = [];
  const logger = createLogger({ format, clock: () => at, sink: { write: (text: string) => void lines.push(text) }, ...(level ? { level } : {}) });
  return { lines, logger };
}

describe('the pino logger', () => {
  it('writes the text format byte for byte as the hand-written logger did, one write per line', () => {
    const { lines, logger } = capture('text');
    logger.log('warn', 'upstream down', { name: 'desk', attempt: 3, error: 'spawn ENOENT\nat foo', skip: undefined });
    logger.log('info', 'two\nlines');
    logger.log('error', 'x', { obj: { a: 1 }, err: new Error('boom') });
    logger.log('info', 'odd values', { none: null, yes: true, list: [1, 'two'], empty: '', spaced: 'a b' });
    assert.deepEqual(lines, [
      '2026-01-02T03:04:05.006Z WARN  upstream down name=desk attempt=3 error="spawn ENOENT\\nat foo"\n',
      '2026-01-02T03:04:05.006Z INFO  two\\nlines\n',
      '2026-01-02T03:04:05.006Z ERROR x obj="{\\"a\\":1}" err=boom\n',
      '2026-01-02T03:04:05.006Z INFO  odd values none=null yes=true list="[1,\\"two\\"]" empty="" spaced="a b"\n',
    ]);
  });

  it('builds nothing for an entry below the level: its fields are not even read', () => {
    const { lines, logger } = capture('json', 'warn');
    let reads = 0;
    const fields = Object.defineProperty({}, 'costly', { enumerable: true, get: () => (reads += 1) }) as LogFields;
    logger.log('debug', 'hidden', fields);
    logger.child({ session: 's1' }).log('info', 'hidden too', fields);
    assert.equal(reads, 0);
    assert.deepEqual(lines, []);
    logger.log('warn', 'shown', fields);
    assert.equal(reads, 1);
    assert.equal(lines.length, 1);
  });

  it('writes JSON lines: level label, ISO time, the fields in order, then msg; an Error by its message', () => {
    const { lines, logger } = capture('json');
    logger.log('warn', 'upstream down', { name: 'desk', attempt: 3, error: new Error('spawn ENOENT'), skip: undefined });
    logger.log('info', 'two\nlines');
    assert.deepEqual(lines, [
      '{"level":"warn","time":"2026-01-02T03:04:05.006Z","name":"desk","attempt":3,"error":"spawn ENOENT","msg":"upstream down"}\n',
      '{"level":"info","time":"2026-01-02T03:04:05.006Z","msg":"two\\nlines"}\n',
    ]);
  });

  it('a field named like a key of the record (level, time, msg) is written with a leading underscore, in either format', () => {
    for (const format of ['text', 'json'] as const) {
      const { lines, logger } = capture(format);
      logger.child({ msg: 'bound' }).log('warn', 'clash', { level: 'x', time: 'not a date' });
      const expected =
        format === 'text'
          ? '2026-01-02T03:04:05.006Z WARN  clash _msg=bound _level=x _time="not a date"\n'
          : '{"level":"warn","time":"2026-01-02T03:04:05.006Z","_msg":"bound","_level":"x","_time":"not a date","msg":"clash"}\n';
      assert.deepEqual(lines, [expected], format);
    }
  });

  it('child loggers write their bindings (nested ones in order) before the entry\'s fields, and leave the parent alone', () => {
    for (const format of ['text', 'json'] as const) {
      const { lines, logger } = capture(format);
      const session = logger.child({ session: 's-1' });
      session.child({ upstream: 'desk', failure: new Error('gone') }).log('info', 'call', { tool: 'echo' });
      session.log('debug', 'hidden');
      logger.log('info', 'plain');
      const expected =
        format === 'text'
          ? ['2026-01-02T03:04:05.006Z INFO  call session=s-1 upstream=desk failure=gone tool=echo\n', '2026-01-02T03:04:05.006Z INFO  plain\n']
          : [
              '{"level":"info","time":"2026-01-02T03:04:05.006Z","session":"s-1","upstream":"desk","failure":"gone","tool":"echo","msg":"call"}\n',
              '{"level":"info","time":"2026-01-02T03:04:05.006Z","msg":"plain"}\n',
            ];
      assert.deepEqual(lines, expected, format);
    }
  });

  it('drops entries below its level, children included (default info)', () => {
    const warn = capture('text', 'warn');
    for (const level of ['debug', 'info', 'warn', 'error'] as const) warn.logger.log(level, level);
    warn.logger.child({ k: 1 }).log('info', 'child-info');
    assert.deepEqual(warn.lines.map((l) => l.split(/\s+/)[2]), ['warn', 'error']);
    const dflt = capture('json');
    dflt.logger.log('debug', 'hidden');
    dflt.logger.log('info', 'shown');
    assert.equal(dflt.lines.length, 1);
    const debug = capture('text', 'debug');
    debug.logger.log('debug', 'seen');
    assert.match(debug.lines[0] ?? '', /^\S+ DEBUG seen\n$/);
  });

  it('redacts the credentials of every URL in both formats, in messages, fields and bindings', () => {
    for (const format of ['text', 'json'] as const) {
      const { lines, logger } = capture(format);
      logger
        .child({ target: 'http://u:pw@h/mcp' })
        .log('warn', 'fetch https://h/p?key=K1 failed', { url: 'https://h/p?token=T2', detail: { to: 'http://a:b@h/x?q=K3' } });
      const [line = ''] = lines;
      for (const secret of ['pw', 'K1', 'T2', 'a:b', 'K3']) assert.equal(line.includes(secret), false, line);
      assert.ok(line.includes('https://h/p?key=***'), line);
      if (format === 'json') assert.deepEqual(JSON.parse(line).detail, { to: 'http://***@h/x?q=***' });
    }
  });
});

describe('loggers over a function (tests, wrappers) and the silent logger', () => {
  it('loggerFrom hands each entry over with the child bindings merged in front of its fields', () => {
    const seen: [LogLevel, string, LogFields | undefined][] = [];
    const logger = loggerFrom((level, message, fields) => seen.push([level, message, fields]));
    logger.log('info', 'a');
    logger.child({ session: 's' }).child({ upstream: 'u' }).log('warn', 'b', { upstream: 'own', n: 1 });
    logger.child({ session: 's' }).log('error', 'c');
    assert.deepEqual(seen, [
      ['info', 'a', undefined],
      ['warn', 'b', { session: 's', upstream: 'own', n: 1 }],
      ['error', 'c', { session: 's' }],
    ]);
  });

  it('the silent logger has children, silent too', () => {
    assert.equal(silentLogger.child({ session: 's' }), silentLogger);
    assert.doesNotThrow(() => silentLogger.child({}).log('error', 'nothing'));
  });
});
