/** @module The pinned toolchains of scripts/node-versions.tsv: parsing the table (with line numbers in its errors) and picking a row. */

/** One row: a registry package at an exact version, and the integrity its tarball must have. */
export interface Pin {
  package: string;
  version: string;
  major: number;
  integrity: string;
  line: number;
}

export class PinError extends Error {
  override name = 'PinError';
}

const PACKAGE = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;
const INTEGRITY = /^sha512-([A-Za-z0-9+/]{86}==)$/;

/** Parses the table: `package version integrity` per line, `#` starts a comment. Each package appears at most once per major version. */
export function parsePins(text: string, source: string): Pin[] {
  const pins: Pin[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    const content = raw.replace(/#.*$/, '').trim();
    if (content === '') return;
    const where = `${source}:${line}`;
    const fields = content.split(/\s+/);
    if (fields.length !== 3) throw new PinError(`${where}: expected "package version integrity", found ${fields.length} field(s)`);
    const [name, version, integrity] = fields as [string, string, string];
    if (!PACKAGE.test(name)) throw new PinError(`${where}: "${name}" is not an npm package name`);
    const parts = VERSION.exec(version);
    if (!parts) throw new PinError(`${where}: version "${version}" is not an exact version (MAJOR.MINOR.PATCH)`);
    if (!INTEGRITY.test(integrity)) throw new PinError(`${where}: integrity must be "sha512-" and 88 base64 characters (npm view ${name}@${version} dist.integrity)`);
    const major = Number(parts[1]);
    const twin = pins.find((pin) => pin.package === name && pin.major === major);
    if (twin) throw new PinError(`${where}: ${name} ${major}.x is already pinned on line ${twin.line}`);
    pins.push({ package: name, version, major, integrity, line });
  });
  return pins;
}

/** The registry package holding the Node binary and headers of a platform, as the `node` package's installer names it. */
export function nodePackageName(platform: string, arch: string): string {
  return `node-${platform}-${arch}`;
}

/** The pinned Node of a major version for this platform, or an error naming what is pinned. */
export function findNodePin(pins: readonly Pin[], major: number, platform: string, arch: string): Pin {
  const name = nodePackageName(platform, arch);
  const found = pins.find((pin) => pin.package === name && pin.major === major);
  if (found) return found;
  const majors = nodeMajors(pins, platform, arch);
  const have = majors.length > 0 ? `pinned for ${name}: ${majors.join(', ')}` : `nothing is pinned for ${name}`;
  throw new PinError(`no Node ${major} pinned for ${platform}-${arch} (${have}); add a row for ${name} to scripts/node-versions.tsv`);
}

/** The one pinned version of a package (e.g. npm). */
export function findPin(pins: readonly Pin[], name: string): Pin {
  const found = pins.filter((pin) => pin.package === name);
  if (found.length !== 1) throw new PinError(`expected exactly one pinned ${name} in scripts/node-versions.tsv, found ${found.length}`);
  return found[0] as Pin;
}

/** The Node major versions pinned for a platform, ascending. */
export function nodeMajors(pins: readonly Pin[], platform: string, arch: string): number[] {
  const name = nodePackageName(platform, arch);
  return pins.filter((pin) => pin.package === name).map((pin) => pin.major).sort((a, b) => a - b);
}
