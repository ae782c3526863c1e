/** @module Bench process-tree sampling from /proc: CPU time and RSS summed over a process and all its descendants. */

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = ((): number => {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
})();

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Fields of /proc/<pid>/stat after the `(comm)` field: index 0 is field 3 (state). */
function statFields(pid: number): string[] | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** `root` and every live descendant, found through the parent pid of each process. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (!fields) continue;
    const parent = Number(fields[1]);
    const list = children.get(parent) ?? [];
    list.push(Number(entry));
    children.set(parent, list);
  }
  const tree: number[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined && tree.length < 100_000; pid = queue.shift()) {
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** CPU microseconds (utime + stime, plus reaped children's cutime + cstime) summed over the tree. */
export function treeCpuMicros(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    const fields = statFields(pid);
    // fields[11..14] are stat fields 14..17: utime, stime, cutime, cstime
    if (fields) for (const index of [11, 12, 13, 14]) ticks += Number(fields[index] ?? 0);
  }
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

export interface TreeMemory {
  /** VmRSS summed over the tree: pages shared between processes count once per process. */
  rssBytes: number;
  /** Pss summed over the tree: shared pages split between the processes sharing them (NaN if unreadable). */
  pssBytes: number;
  processes: number;
}

function kib(text: string | null, field: string): number | undefined {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text ?? '');
  return match ? Number(match[1]) * 1024 : undefined;
}

/** RSS (from /proc/<pid>/status) and PSS (from /proc/<pid>/smaps_rollup) summed over the tree. */
export function treeMemory(root: number): TreeMemory {
  const memory: TreeMemory = { rssBytes: 0, pssBytes: 0, processes: 0 };
  for (const pid of processTree(root)) {
    const rss = kib(readOrNull(`/proc/${pid}/status`), 'VmRSS');
    if (rss === undefined) continue;
    memory.rssBytes += rss;
    memory.pssBytes += kib(readOrNull(`/proc/${pid}/smaps_rollup`), 'Pss') ?? Number.NaN;
    memory.processes += 1;
  }
  return memory;
}

/** VmRSS of one process in bytes (NaN when it is gone). */
export function processRss(pid: number): number {
  return kib(readOrNull(`/proc/${pid}/status`), 'VmRSS') ?? Number.NaN;
}

/** MemAvailable of the machine in bytes (Infinity when unreadable). */
export function memAvailableBytes(): number {
  return kib(readOrNull('/proc/meminfo'), 'MemAvailable') ?? Number.POSITIVE_INFINITY;
}
