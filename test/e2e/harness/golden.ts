/**
 * @module e2e/harness/golden: compares a value with a JSON golden file. A missing file, or `UPDATE_GOLDEN=1`, writes
 * the file instead (and says so); a file that was missing still fails the test when `CI` is set.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';

import { REPO_ROOT } from './paths.js';

export interface GoldenContext {
  diagnostic(message: string): void;
}

export async function assertGolden(t: GoldenContext, path: string, actual: unknown): Promise<void> {
  const shown = relative(REPO_ROOT, path);
  const missing = !existsSync(path);
  if (missing || process.env.UPDATE_GOLDEN === '1') {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${JSON.stringify(actual, null, 2)}\n`);
    t.diagnostic(`golden file ${shown} ${missing ? 'was missing and has been written' : 'rewritten (UPDATE_GOLDEN=1)'}`);
    if (missing && process.env.CI) assert.fail(`golden file ${shown} was missing (written now); review and commit it`);
    return;
  }
  const expected: unknown = JSON.parse(await readFile(path, 'utf8'));
  assert.deepEqual(actual, expected, `differs from ${shown} (rerun with UPDATE_GOLDEN=1 if the change is intended)`);
}
