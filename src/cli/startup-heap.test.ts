/** @module Tests of the young generation held small while the gateway starts: it is held, released once, and left to a user who set the flag. */

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const MODULE = new URL('./startup-heap.ts', import.meta.url).href;

/** The young generation's size (MB) in a fresh node after allocating `mb` MB of short-lived garbage, with the module's calls in `steps`. */
function newSpaceAfterBurst(steps: string, nodeArgs: string[] = []): number {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const { holdYoungGenerationSmall, releaseYoungGeneration } = await import(${JSON.stringify(MODULE)});
    const burst = () => { let keep = []; for (let i = 0; i < 400000; i++) { keep.push({ i, s: 'x'.repeat(20) }); if (keep.length > 20000) keep = []; } };
    ${steps}
    console.log(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576);
  `;
  const run = spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return Number(run.stdout.trim());
}

test('held, a burst of allocation leaves the young generation at its initial size; released, it grows again with the load', () => {
  const grown = newSpaceAfterBurst('burst();');
  const held = newSpaceAfterBurst('holdYoungGenerationSmall([], undefined); burst();');
  const released = newSpaceAfterBurst('holdYoungGenerationSmall([], undefined); burst(); releaseYoungGeneration(); burst(); burst();');
  assert.ok(held < grown, `held ${held} MB, not held ${grown} MB`);
  assert.ok(released > held, `released ${released} MB, held ${held} MB`);
});

test('a growth factor the user set is theirs: nothing is held', () => {
  const userSet = newSpaceAfterBurst('holdYoungGenerationSmall(process.execArgv, undefined); burst();', ['--semi-space-growth-factor=2']);
  const held = newSpaceAfterBurst('holdYoungGenerationSmall([], undefined); burst();');
  assert.ok(userSet > held, `user's ${userSet} MB, held ${held} MB`);
});
