/** @module Installs a pinned registry tarball (a Node build, npm) into a cache folder outside the repository: fetched, checked against its pinned integrity, unpacked, checked, then moved into place in one rename. */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { Pin } from './pins.js';

const run = promisify(execFile);

/** Written last into a folder that is complete; a folder without it is never used. */
const MARKER = '.switchboard-toolchain';

/** Puts the tarball of `spec` (`name@version`) into folder `into` and returns its path. */
export type Fetch = (spec: string, into: string) => Promise<string>;

/** Throws when the unpacked folder is not what the pin promises. */
export type Check = (folder: string, pin: Pin) => Promise<void>;

/** The `sha512-…` integrity string npm records for a tarball. */
export function integrityOf(bytes: Buffer): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

/** The folder of `pin` under `cache`, installing it first when it is not there yet. */
export async function ensureInstalled(pin: Pin, cache: string, fetch: Fetch, check: Check): Promise<string> {
  const spec = `${pin.package}@${pin.version}`;
  const folder = join(cache, `${pin.package.replace('/', '+')}-${pin.version}`);
  if (existsSync(join(folder, MARKER))) return folder;
  await mkdir(cache, { recursive: true });
  // A folder left without its marker (a run killed mid-way) is not trusted.
  await rm(folder, { recursive: true, force: true });
  const work = await mkdtemp(join(cache, '.partial-'));
  try {
    let tarball: string;
    try {
      tarball = await fetch(spec, work);
    } catch (error) {
      throw new Error(`could not fetch ${spec}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const actual = integrityOf(await readFile(tarball));
    if (actual !== pin.integrity) {
      throw new Error(`${spec}: the tarball's integrity is ${actual}, the pin in scripts/node-versions.tsv:${pin.line} says ${pin.integrity}`);
    }
    const unpacked = join(work, 'unpacked');
    await mkdir(unpacked);
    await run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1', '--no-same-owner']);
    await check(unpacked, pin);
    await writeFile(join(unpacked, MARKER), `${spec} ${pin.integrity}\n`);
    try {
      await rename(unpacked, folder);
    } catch (error) {
      // Another run installed it meanwhile: theirs is as good as ours.
      if (!existsSync(join(folder, MARKER))) throw error;
    }
    return folder;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A Node build: its binary runs and is the pinned version, and it carries the headers native modules build against. */
export async function checkNodeFolder(folder: string, pin: Pin): Promise<void> {
  const binary = join(folder, 'bin', 'node');
  let printed: string;
  try {
    printed = (await run(binary, ['--version'])).stdout.trim();
  } catch (error) {
    throw new Error(`${pin.package}@${pin.version}: bin/node does not run here: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (printed !== `v${pin.version}`) throw new Error(`${pin.package}@${pin.version}: bin/node --version says ${printed}, expected v${pin.version}`);
  if (!existsSync(join(folder, 'include', 'node', 'node_api.h'))) {
    throw new Error(`${pin.package}@${pin.version}: no include/node/node_api.h: the native driver cannot be built against it`);
  }
}

/** The npm package: its CLI entry is there. */
export async function checkNpmFolder(folder: string, pin: Pin): Promise<void> {
  if (!existsSync(join(folder, 'bin', 'npm-cli.js'))) throw new Error(`${pin.package}@${pin.version}: no bin/npm-cli.js in the tarball`);
}

/** Fetches with `npm pack` (the registry and cache npm is configured with), into `into`. */
export async function npmPack(spec: string, into: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', spec, '--pack-destination', into, '--json', '--silent'], { maxBuffer: 64 * 1024 * 1024 });
  const files = (await readdir(into)).filter((name) => name.endsWith('.tgz'));
  if (files.length !== 1) throw new Error(`npm pack left ${files.length} tarballs (output: ${stdout.slice(0, 200)})`);
  return join(into, files[0] as string);
}
