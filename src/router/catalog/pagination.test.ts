/** @module Tests of cursor pagination. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { GatewayError } from '../../protocol/gateway-errors.js';
import { paginate } from './pagination.js';

test('walks a list page by page and ends without a cursor', () => {
  const items = Array.from({ length: 5 }, (_, i) => i);
  const first = paginate(items, undefined, 2);
  assert.deepEqual(first.items, [0, 1]);
  const second = paginate(items, first.nextCursor, 2);
  assert.deepEqual(second.items, [2, 3]);
  const third = paginate(items, second.nextCursor, 2);
  assert.deepEqual(third, { items: [4] });
});

test('rejects cursors it did not make', () => {
  for (const cursor of ['nope', 42, Buffer.from('{"o":-1}').toString('base64url'), Buffer.from('{"o":99}').toString('base64url')]) {
    assert.throws(() => paginate([1, 2], cursor, 1), (error: unknown) => error instanceof GatewayError && error.code === 'GW_ERR_BAD_CURSOR');
  }
});
