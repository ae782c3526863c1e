/** @module Tests of the readable log line: time, level, message and key=value fields on one line, every URL redacted. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { formatLogLine } from './log-line.js';

const at = new Date('2026-01-02T03:04:05.006Z');

describe('the readable log line', () => {
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
});
