/** @module incident-desk/stateless/state-key.test: where the requestState key comes from. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { STATE_KEY_ENV, StateKeyError, stateKeyFromEnv } from './state-key.js';

test('without the variable each call draws 32 fresh random bytes', () => {
  const first = stateKeyFromEnv({});
  const second = stateKeyFromEnv({ [STATE_KEY_ENV]: '' });
  assert.ok(first instanceof Uint8Array && first.byteLength === 32);
  assert.ok(second instanceof Uint8Array && second.byteLength === 32);
  assert.notDeepEqual(first, second);
});

test('a configured key of 32 bytes or more is used as given', () => {
  const key = 'x'.repeat(32);
  assert.equal(stateKeyFromEnv({ [STATE_KEY_ENV]: key }), key);
});

test('a configured key under 32 bytes is refused, naming the variable', () => {
  assert.throws(() => stateKeyFromEnv({ [STATE_KEY_ENV]: 'too-short' }), (error: unknown) => error instanceof StateKeyError && error.message.includes(STATE_KEY_ENV));
});
