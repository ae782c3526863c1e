/** @module incident-desk/args.test: flag parsing of the `incident-desk` command. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ArgsError, parseIncidentDeskArgs } from './args.js';

test('no flags means stdio with the default timeout', () => {
  assert.deepEqual(parseIncidentDeskArgs([]), { help: false });
});

test('--http HOST:PORT and --request-timeout MS are read', () => {
  assert.deepEqual(parseIncidentDeskArgs(['--http', '127.0.0.1:0', '--request-timeout', '250']), {
    help: false,
    http: { host: '127.0.0.1', port: 0 },
    requestTimeoutMs: 250,
  });
  assert.deepEqual(parseIncidentDeskArgs(['--http=[::1]:8080']).http, { host: '::1', port: 8080 });
});

test('--stateless is read, alone or with --http', () => {
  assert.deepEqual(parseIncidentDeskArgs(['--stateless']), { help: false, stateless: true });
  assert.deepEqual(parseIncidentDeskArgs(['--stateless', '--http', '127.0.0.1:0']), { help: false, stateless: true, http: { host: '127.0.0.1', port: 0 } });
});

for (const argv of [
  ['--stateless', '--request-timeout', '250'],
  ['--http', '127.0.0.1'],
  ['--http', ':80'],
  ['--http', 'localhost:99999'],
  ['--http', 'localhost:8o'],
  ['--request-timeout', '0'],
  ['--request-timeout', '1.5'],
  ['--request-timeout', 'soon'],
  ['--verbose'],
  ['extra'],
]) {
  test(`${argv.join(' ')} is refused with an ArgsError`, () => {
    assert.throws(() => parseIncidentDeskArgs(argv), ArgsError);
  });
}
