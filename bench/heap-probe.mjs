/** @module Bench heap probe, preloaded into a gateway with `node --expose-gc --import`: on SIGUSR2 it collects garbage and writes process.memoryUsage() and the V8 heap spaces' sizes as JSON to $BENCH_HEAP_PROBE_FILE. */

import { renameSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const target = process.env.BENCH_HEAP_PROBE_FILE;
if (target) {
  process.on('SIGUSR2', () => {
    // Two full collections: the first may only queue finalizers that free more on the second.
    globalThis.gc?.();
    globalThis.gc?.();
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, { size: space.space_size, used: space.space_used_size }]));
    const usage = { ...process.memoryUsage(), spaces, collected: typeof globalThis.gc === 'function' };
    writeFileSync(`${target}.tmp`, JSON.stringify(usage));
    renameSync(`${target}.tmp`, target);
  });
}
