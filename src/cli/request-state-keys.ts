/** @module The keys that sign requestState handles: from config, else one generated once and kept in the data folder (mode 600). */

import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import type { HandleKeyRing } from '../bridge/handle-keys.js';
import { generateHandleKeyText, handleKeyFromText, handleKeyRing, handleKeyRingFromTexts } from '../bridge/handle-keys.js';
import type { NormalizedConfig } from '../config/types.js';
import { CliError } from './cli-io.js';
import { dataFolder } from './data-folder.js';

/** Where a generated key is kept: beside the SQLite file, or under data/ next to the config (as the operator token). */
export function requestStateKeyFile(config: NormalizedConfig): string {
  const base = dataFolder(config);
  return join(base, 'request-state-key');
}

/**
 * The key ring: `requestState.keys` when set (already checked by the config schema); else the key file,
 * created with fresh random bytes when missing, so handles survive a restart of `serve`.
 */
export async function requestStateKeys(config: NormalizedConfig): Promise<{ ring: HandleKeyRing; source: 'config' | 'key file' | 'generated'; file?: string }> {
  if (config.requestState.keys !== undefined) {
    const read = handleKeyRingFromTexts(config.requestState.keys);
    if (!read.ok) throw new CliError(`requestState.keys[${read.index}]: ${read.reason}`);
    return { ring: read.ring, source: 'config' };
  }
  const file = requestStateKeyFile(config);
  const existing = await readFile(file, 'utf8').then((text) => text.trim(), () => undefined);
  if (existing !== undefined) {
    const read = handleKeyFromText(existing);
    if (!read.ok) throw new CliError(`the request-state key in ${file} is unusable (${read.reason}): delete the file to generate a new one`);
    return { ring: handleKeyRing([read.key]), source: 'key file', file };
  }
  const text = generateHandleKeyText();
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${text}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  const read = handleKeyFromText(text);
  if (!read.ok) throw new CliError(`could not generate a request-state key: ${read.reason}`);
  return { ring: handleKeyRing([read.key]), source: 'generated', file };
}
