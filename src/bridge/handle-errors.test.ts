/** @module Tests of the JSON-RPC error for each refused handle. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { HandleRejection } from './handle-errors.js';
import { requestStateError } from './handle-errors.js';

const ALL: HandleRejection[] = ['malformed', 'unknown-version', 'bad-mac', 'expired', 'wrong-principal', 'wrong-upstream', 'wrong-method', 'wrong-params', 'replayed', 'gone', 'ledger-full'];

test('every rejection maps to -32602 naming the failure, except a full ledger (-32603, retry later)', () => {
  const messages = new Set<string>();
  for (const reason of ALL) {
    const error = requestStateError(reason);
    if (reason === 'ledger-full') {
      assert.deepEqual(error.data, { reason: 'GW_ERR_REQUEST_STATE_BUSY', failure: reason });
      assert.equal(error.code, -32603);
    } else {
      assert.equal(error.code, -32602, reason);
      assert.deepEqual(error.data, { reason: 'GW_ERR_REQUEST_STATE_REJECTED', failure: reason }, reason);
      assert.match(error.message, /without requestState$/, reason);
    }
    messages.add(error.message);
  }
  assert.equal(messages.size, ALL.length, 'each reason has its own message');
});
