/** @module When a process started, from Linux's /proc/<pid>/stat: with the pid it names one process for good, so a reused pid is never taken for it. */

import { readFileSync } from 'node:fs';

/** The start time of `pid` (clock ticks after boot, as text), or undefined when it is not running (or is a zombie, or there is no /proc). */
export function processStartTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // After the command name (in parentheses, which may hold anything): field 3 (state) onwards; the start time is field 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return fields[19];
}

/** Whether the process that had `startTime` as `pid` still runs. */
export function isStillRunning(pid: number, startTime: string): boolean {
  return processStartTime(pid) === startTime;
}
