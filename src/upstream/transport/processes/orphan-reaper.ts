/**
 * @module At start: stops the stdio upstreams that gateways which died without closing them (SIGKILL, a crash) left
 * running, from their record files (process-ledger.ts). Only the records of a gateway whose own process is gone are
 * acted on, and only a process with the recorded pid and start time is signalled.
 */

import type { Clock } from '../../../core/clock.js';
import { systemClock } from '../../../core/clock.js';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { LEDGER_FOLDER, type LedgerRecord, type UpstreamProcess } from './process-ledger.js';
import { isStillRunning } from './process-start.js';

/** How long an orphan gets after SIGTERM before SIGKILL. */
const DEFAULT_GRACE_MS = 3000;
const POLL_MS = 50;

export interface StoppedOrphan extends UpstreamProcess {
  /** The dead gateway that had spawned it. */
  readonly gatewayPid: number;
  /** What stopped it: SIGTERM, or SIGKILL when it ignored SIGTERM. */
  readonly signal: 'SIGTERM' | 'SIGKILL';
}

export interface ReapOptions {
  graceMs?: number;
  /** What time it is (default the system's). */
  clock?: Clock;
  /** A record file that could not be read or removed (it is left as it is). */
  onBadRecord?: (file: string, error: unknown) => void;
}

function readRecord(file: string): LedgerRecord {
  const record = JSON.parse(readFileSync(file, 'utf8')) as LedgerRecord;
  if (typeof record?.gateway?.pid !== 'number' || typeof record.gateway.startTime !== 'string' || !Array.isArray(record.upstreams)) {
    throw new Error('not a record of upstream processes');
  }
  return record;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // it ended meanwhile
  }
}

/** Stops the orphans recorded under `dataFolder` and removes the records of dead gateways; returns what it stopped. */
export async function reapOrphanedUpstreams(dataFolder: string, options: ReapOptions = {}): Promise<StoppedOrphan[]> {
  const folder = join(dataFolder, LEDGER_FOLDER);
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => /^gateway-\d+\.json$/.test(name));
  } catch {
    return []; // no folder: nothing was ever recorded here
  }
  const orphans: { process: UpstreamProcess; gatewayPid: number }[] = [];
  const deadRecords: string[] = [];
  for (const name of names) {
    const file = join(folder, name);
    let record: LedgerRecord;
    try {
      record = readRecord(file);
    } catch (error) {
      options.onBadRecord?.(file, error);
      continue;
    }
    if (isStillRunning(record.gateway.pid, record.gateway.startTime)) continue; // that gateway lives: its upstreams are its own
    deadRecords.push(file);
    for (const upstream of record.upstreams) {
      if (typeof upstream?.pid === 'number' && typeof upstream.startTime === 'string' && isStillRunning(upstream.pid, upstream.startTime)) {
        orphans.push({ process: upstream, gatewayPid: record.gateway.pid });
      }
    }
  }
  for (const { process: orphan } of orphans) signal(orphan.pid, 'SIGTERM');
  const clock = options.clock ?? systemClock;
  const deadline = clock.now() + (options.graceMs ?? DEFAULT_GRACE_MS);
  const running = () => orphans.filter(({ process: orphan }) => isStillRunning(orphan.pid, orphan.startTime));
  while (running().length > 0 && clock.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  const stubborn = new Set(running().map(({ process: orphan }) => orphan.pid));
  for (const pid of stubborn) signal(pid, 'SIGKILL');
  for (const file of deadRecords) {
    try {
      rmSync(file, { force: true });
    } catch (error) {
      options.onBadRecord?.(file, error);
    }
  }
  return orphans.map(({ process: orphan, gatewayPid }) => ({ ...orphan, gatewayPid, signal: stubborn.has(orphan.pid) ? 'SIGKILL' : 'SIGTERM' }));
}
