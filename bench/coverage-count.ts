/**
 * @module Counting what a path runs in src/ with V8's precise coverage, for the trace scripts: coverage on before any
 * warm-up (a callback compiled without a call counter is never counted after), snapshots that reset the counters,
 * and the calls, functions and files of src/ in each snapshot (tsx's `__name` helper left out: not our code).
 */

import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';

const SRC = new URL('../src/', import.meta.url).href;

/** One script's coverage as V8 gives it (the parts counted here). */
export interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[];
}

/** Precise coverage with call counts, on from now; `take` snapshots and resets the counters, `stop` ends it. */
export async function startCoverage(): Promise<{ take(): Promise<ScriptCoverage[]>; stop(): Promise<void> }> {
  const inspector = new Session();
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  return {
    take: async () => (await inspector.post('Profiler.takePreciseCoverage')).result as ScriptCoverage[],
    stop: async () => {
      await inspector.post('Profiler.stopPreciseCoverage');
      inspector.disconnect();
    },
  };
}

export interface Counted {
  calls: number;
  functions: number;
  /** Calls by file of src/, over every snapshot. */
  files: Map<string, number>;
  /** Each snapshot's own calls, functions and files. */
  parts: { calls: number; functions: number; files: number }[];
  perFunction: { name: string; file: string; count: number }[];
}

/** The calls, functions and files of src/ (test helpers left out) in each snapshot, and over all of them. */
export function countCalls(snapshots: ScriptCoverage[][]): Counted {
  const files = new Map<string, number>();
  const perFunction = new Map<string, { name: string; file: string; count: number }>();
  const parts: Counted['parts'] = [];
  let calls = 0;
  for (const snapshot of snapshots) {
    const part = { calls: 0, functions: 0, files: 0 };
    for (const script of snapshot) {
      if (!script.url.startsWith(SRC) || script.url.includes('/testing/')) continue;
      // The first range of each function is its whole body; its count is how often it was entered (an async
      // function is entered again at each resumption after an await).
      const called = script.functions
        .filter((fn) => fn.functionName !== '__name' && (fn.functionName !== '' || fn.ranges[0]?.startOffset !== 0))
        .filter((fn) => (fn.ranges[0]?.count ?? 0) > 0);
      if (called.length === 0) continue;
      const count = called.reduce((sum, fn) => sum + (fn.ranges[0]?.count ?? 0), 0);
      const file = fileURLToPath(script.url).slice(fileURLToPath(SRC).length);
      files.set(file, (files.get(file) ?? 0) + count);
      part.calls += count;
      part.functions += called.length;
      part.files += 1;
      for (const fn of called) {
        const key = `${file}:${fn.ranges[0]?.startOffset ?? 0}`;
        const known = perFunction.get(key);
        if (known) known.count += fn.ranges[0]?.count ?? 0;
        else perFunction.set(key, { name: fn.functionName || '(anonymous)', file, count: fn.ranges[0]?.count ?? 0 });
      }
      calls += count;
    }
    parts.push(part);
  }
  return { calls, functions: perFunction.size, files, parts, perFunction: [...perFunction.values()] };
}

/** Prints `--files` (calls by file) and `--functions` (calls by function), most first, when asked. */
export function printBreakdown(counted: Counted, argv: readonly string[]): void {
  if (argv.includes('--files')) for (const [file, count] of [...counted.files].sort((a, b) => b[1] - a[1])) console.log(`${String(count).padStart(5)}  ${file}`);
  if (argv.includes('--functions')) for (const fn of counted.perFunction.sort((a, b) => b.count - a.count)) console.log(`${String(fn.count).padStart(5)}  ${fn.file}  ${fn.name}`);
}
