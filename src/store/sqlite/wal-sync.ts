/**
 * @module When a commit of the SQLite connection is on disk: commits run with synchronous=NORMAL (appended to the WAL on
 * the event loop, no fsync), and one fdatasync of the `-wal` file, on libuv's thread pool, covers every commit made before
 * it started. Writers and readers wait for the sync that covers what they wrote or read before they report it.
 */

import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Makes everything written to the WAL file so far durable. */
export type SyncFile = () => Promise<void>;

interface Waiter {
  /** The number of commits that must be on disk. */
  upTo: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Counts the commits made on one connection and syncs them in groups: one sync at a time, started on the turn after
 * the first commit that needs one, covering every commit made until it starts. A commit made while a sync runs waits
 * for the next. A failed sync fails every write not yet on disk, then and ever after: after a failed fsync the kernel
 * may have dropped the pages, and a second fsync could succeed without them.
 */
export class WalSync {
  #sync: SyncFile;
  /** Commits made. */
  #commits = 0;
  /** Commits known to be on disk. */
  #onDisk = 0;
  #waiters: Waiter[] = [];
  /** The sync in flight (or about to start), if any. */
  #running: Promise<void> | undefined;
  #failure: unknown;
  #elsewhere: () => boolean;

  /** `elsewhere` says whether another connection (another process on the file) committed since it was last asked. */
  constructor(sync: SyncFile, elsewhere: () => boolean = () => false) {
    this.#sync = sync;
    this.#elsewhere = elsewhere;
  }

  /** A commit was just made on the connection (it is in the WAL, not yet on disk). */
  committed(): void {
    this.#commits += 1;
  }

  /**
   * Resolves once every commit made so far is on disk (at once when it already is), another connection's included (the
   * sync is of the file, whoever wrote it); rejects when that cannot be known.
   */
  durable(): Promise<void> {
    if (this.#elsewhere()) this.committed();
    const upTo = this.#commits;
    if (upTo <= this.#onDisk) return Promise.resolve();
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ upTo, resolve, reject });
      if (this.#running === undefined) this.#running = this.#next();
    });
  }

  /** Resolves once no sync is in flight (for closing: a write already committed still gets its answer). */
  async settle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  /** Waits a turn (so the commits of this turn share the sync), syncs, answers the waiters it covers, and goes on while any wait. */
  async #next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.#waiters.length > 0 && this.#failure === undefined) {
      const upTo = this.#commits;
      try {
        await this.#sync();
        this.#onDisk = Math.max(this.#onDisk, upTo);
      } catch (error) {
        this.#failure = error;
      }
      const waiting = this.#waiters;
      this.#waiters = [];
      for (const waiter of waiting) {
        if (waiter.upTo <= this.#onDisk) waiter.resolve();
        else if (this.#failure !== undefined) waiter.reject(this.#failure);
        else this.#waiters.push(waiter);
      }
    }
    this.#running = undefined;
  }
}

/** Why a write or read is refused once a sync of the WAL of the store at `path` failed. */
export function syncFailure(path: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `the store ${path} could not be synced to disk (${reason}): no write since is reported done; restart the gateway once the disk is sound`;
}

/** The real sync of `walPath` (a database's `-wal` file): opened at the first sync and kept open; its folder synced once, so the file's name is on disk too. */
export function walFileSync(walPath: string): { sync: SyncFile; close: () => Promise<void> } {
  let handle: FileHandle | undefined;
  let folderSynced = process.platform === 'win32'; // a folder cannot be opened, nor needs syncing, there
  return {
    sync: async () => {
      // SQLite removes the WAL only when the last connection closes; this store's connection is open while it syncs.
      handle ??= await open(walPath, 'r+');
      await handle.datasync();
      if (!folderSynced) {
        const folder = await open(dirname(walPath), 'r');
        try {
          await folder.sync();
        } finally {
          await folder.close();
        }
        folderSynced = true;
      }
    },
    close: async () => {
      const open = handle;
      handle = undefined;
      await open?.close();
    },
  };
}
