/** @module The assertion that a config run fails with one ConfigError of one exact, one-line message. */

import assert from 'node:assert/strict';
import { ConfigError } from '../load.js';

/** Asserts that `run` throws a ConfigError whose message is exactly `message` and fits on one line. */
export function assertConfigError(run: () => unknown, message: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ConfigError, `not a ConfigError: ${String(error)}`);
    assert.equal(error.message, message);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
}
