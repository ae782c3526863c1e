/** @module `switchboard check`'s look at a SQLite store: the file's schema version, read without creating or changing the file. */

import { existsSync } from 'node:fs';

import Database from 'better-sqlite3';

import type { StoreReport } from '../store-report.js';
import { checkHeader, latestVersion } from './schema.js';

/** Opens the file read-only, if it exists, and reads its version; a file of a newer Switchboard or of another application is a failed report. */
export function probeSqliteStore(path: string): StoreReport {
  const base: StoreReport = { type: 'sqlite', where: path, state: 'ok', latestSchemaVersion: latestVersion() };
  if (!existsSync(path)) return base;
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const header = checkHeader(db, path);
    return header.version === 0 ? base : { ...base, schemaVersion: header.version };
  } catch (error) {
    return { ...base, state: 'failed', error: error instanceof Error ? error.message : String(error) };
  } finally {
    db?.close();
  }
}
