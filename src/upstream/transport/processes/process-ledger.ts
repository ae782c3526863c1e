/**
 * @module The record of the stdio upstreams one gateway process spawned (pid and start time), one JSON file per gateway
 * in a folder beside the store, kept current as they start and end, so that the next start can stop what a gateway
 * killed with SIGKILL left running (see orphan-reaper.ts).
 */

import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { processStartTime } from './process-start.js';

/** The folder, under the data folder, that holds one record file per gateway process. */
export const LEDGER_FOLDER = 'upstream-processes';

export interface ProcessIdentity {
  readonly pid: number;
  readonly startTime: string;
}

export interface UpstreamProcess extends ProcessIdentity {
  /** The upstream's name in the config. */
  readonly name: string;
}

/** What one record file holds. */
export interface LedgerRecord {
  readonly gateway: ProcessIdentity;
  readonly upstreams: readonly UpstreamProcess[];
}

/** Told of every stdio upstream process as it starts and ends (open-upstream.ts calls it). */
export interface SpawnWatcher {
  spawned(pid: number, name: string): void;
  ended(pid: number): void;
}

export const ledgerFileName = (pid: number): string => `gateway-${pid}.json`;

/**
 * This gateway's record file. Written synchronously at each change (a SIGKILL may come any time after a spawn);
 * written only once there is something to record. Where /proc cannot say when a process started, nothing is
 * recorded: a pid alone could name another process by the next start.
 */
export class ProcessLedger implements SpawnWatcher {
  readonly #folder: string;
  readonly #file: string;
  readonly #self: ProcessIdentity | undefined;
  readonly #upstreams = new Map<number, UpstreamProcess>();
  #written = false;
  readonly #onWriteError: (error: unknown) => void;

  /** `onWriteError`: the record could not be written (the upstream runs all the same, unrecorded). */
  constructor(dataFolder: string, options: { onWriteError?: (error: unknown) => void; pid?: number } = {}) {
    const pid = options.pid ?? process.pid;
    this.#onWriteError = options.onWriteError ?? (() => undefined);
    this.#folder = join(dataFolder, LEDGER_FOLDER);
    this.#file = join(this.#folder, ledgerFileName(pid));
    const startTime = processStartTime(pid);
    this.#self = startTime === undefined ? undefined : { pid, startTime };
  }

  get file(): string {
    return this.#file;
  }

  spawned(pid: number, name: string): void {
    const startTime = processStartTime(pid);
    if (this.#self === undefined || startTime === undefined) return;
    this.#upstreams.set(pid, { pid, startTime, name });
    this.#write();
  }

  ended(pid: number): void {
    if (this.#upstreams.delete(pid)) this.#write();
  }

  /** At shutdown, once the upstreams were closed: the file goes, unless an upstream is still recorded (the next start stops it). */
  close(): void {
    if (this.#upstreams.size > 0 || !this.#written) return;
    try {
      rmSync(this.#file, { force: true });
      this.#written = false;
    } catch (error) {
      this.#onWriteError(error);
    }
  }

  #write(): void {
    if (this.#self === undefined) return;
    const record: LedgerRecord = { gateway: this.#self, upstreams: [...this.#upstreams.values()] };
    try {
      mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
      const partial = `${this.#file}.partial`;
      writeFileSync(partial, `${JSON.stringify(record)}\n`, { mode: 0o600 });
      renameSync(partial, this.#file);
      this.#written = true;
    } catch (error) {
      this.#onWriteError(error);
    }
  }
}
