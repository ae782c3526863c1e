/** @module The one error type every question store rejects with, and what each kind of failure means. */

import { LocalError } from '../core/errors/local.js';

/**
 * - `corrupt-record`: a stored question or audit line cannot be read back (hand-edited file, bad JSON, unknown state…);
 *   only reads and writes of that record fail.
 * - `invalid-record`: the caller asked to store something the store could not read back (bad timestamp, unknown state, …).
 * - `invalid-filter`: a list filter names an unknown state, method or answerer kind, or a bad limit or time.
 * - `duplicate`: a question with that id already exists.
 * - `unknown-question`: an audit line for a question the store does not hold.
 * - `closed`: the store was closed.
 * - `newer-schema`: the file (or PostgreSQL schema) was written by a newer Switchboard; it is left untouched.
 * - `not-a-store`: the file (or PostgreSQL schema) is some other application's database.
 * - `unavailable`: the database server cannot be reached or refuses us (connection refused, wrong password, no such
 *   database, the connection dropped); the message names the server without its password. SQLite: its WAL could not
 *   be synced to disk (then and ever after, for every write and every read of unsynced data).
 * - `instance-taken`: another live gateway holds the instance id this one tried to join under (PostgreSQL).
 */
export type QuestionStoreErrorCode =
  | 'corrupt-record'
  | 'invalid-record'
  | 'invalid-filter'
  | 'duplicate'
  | 'unknown-question'
  | 'closed'
  | 'newer-schema'
  | 'not-a-store'
  | 'unavailable'
  | 'instance-taken';

export class QuestionStoreError extends LocalError {
  override readonly code: QuestionStoreErrorCode;
  /** The question concerned, when there is one. */
  readonly questionId: string | undefined;

  constructor(code: QuestionStoreErrorCode, message: string, options: { questionId?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'QuestionStoreError';
    this.code = code;
    this.questionId = options.questionId;
  }
}

export function isQuestionStoreError(error: unknown, code?: QuestionStoreErrorCode): error is QuestionStoreError {
  return error instanceof QuestionStoreError && (code === undefined || error.code === code);
}
