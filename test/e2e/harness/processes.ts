/** @module e2e/harness/processes: the live child processes of a process, read from /proc (Linux), to count upstream processes. */
import { readdirSync, readFileSync } from 'node:fs';

/** The pids whose parent is `pid` now (zombies left out: they have ended). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it ended while we looked
    }
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(ppid) === pid && state !== 'Z') children.push(Number(entry));
  }
  return children;
}
