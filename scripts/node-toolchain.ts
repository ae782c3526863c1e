/**
 * @module scripts/node-toolchain: installs the pinned extra Node versions (and npm 12) of scripts/node-versions.tsv into a
 * cache folder outside the repository and prints the folder: `node MAJOR` (bin/node and include/node inside), `npm`
 * (bin/npm-cli.js inside), `majors` (the pinned Node majors of this platform, one a line). The cache is
 * $SWITCHBOARD_TOOLCHAIN_CACHE, by default $XDG_CACHE_HOME/switchboard-toolchains (~/.cache/...).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { checkNodeFolder, checkNpmFolder, ensureInstalled, npmPack } from './toolchain/install.js';
import { findNodePin, findPin, nodeMajors, parsePins } from './toolchain/pins.js';

const TABLE = fileURLToPath(new URL('./node-versions.tsv', import.meta.url));
const USAGE = 'usage: node --import tsx scripts/node-toolchain.ts node MAJOR | npm | majors';

function cacheFolder(): string {
  const explicit = process.env.SWITCHBOARD_TOOLCHAIN_CACHE;
  if (explicit) return explicit;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'switchboard-toolchains');
}

async function main(args: string[]): Promise<string> {
  const pins = parsePins(readFileSync(TABLE, 'utf8'), 'scripts/node-versions.tsv');
  const [what, major, ...rest] = args;
  if (what === 'majors' && major === undefined) return nodeMajors(pins, process.platform, process.arch).join('\n');
  if (what === 'npm' && major === undefined) return ensureInstalled(findPin(pins, 'npm'), cacheFolder(), npmPack, checkNpmFolder);
  if (what === 'node' && major !== undefined && /^\d+$/.test(major) && rest.length === 0) {
    return ensureInstalled(findNodePin(pins, Number(major), process.platform, process.arch), cacheFolder(), npmPack, checkNodeFolder);
  }
  throw new Error(USAGE);
}

main(process.argv.slice(2)).then(
  (out) => console.log(out),
  (error: unknown) => {
    console.error(`node-toolchain: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
