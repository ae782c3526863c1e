/** @module Tests of the in-memory replay ledger: once per id, expiry, capacity failing closed. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MemoryHandleLedger } from './handle-ledger.js';

test('an id is used once while its handle lives', async () => {
  const ledger = new MemoryHandleLedger();
  assert.equal(await ledger.markUsed('a', 1000, 0), 'first-use');
  assert.equal(await ledger.markUsed('a', 1000, 500), 'replayed');
  assert.equal(await ledger.markUsed('a', 5000, 999), 'replayed', 'a later expiry does not reset it');
  assert.equal(await ledger.markUsed('b', 1000, 500), 'first-use');
  assert.equal(ledger.size, 2);
});

test('concurrent uses of one id: exactly one wins', async () => {
  const ledger = new MemoryHandleLedger();
  const marks = await Promise.all(Array.from({ length: 20 }, () => ledger.markUsed('same', 1000, 0)));
  assert.equal(marks.filter((mark) => mark === 'first-use').length, 1);
  assert.equal(marks.filter((mark) => mark === 'replayed').length, 19);
});

test('expired entries are purged; a full ledger of live entries refuses rather than forgets', async () => {
  const ledger = new MemoryHandleLedger({ capacity: 3 });
  assert.equal(await ledger.markUsed('a', 100, 0), 'first-use');
  assert.equal(await ledger.markUsed('b', 200, 0), 'first-use');
  assert.equal(await ledger.markUsed('c', 300, 0), 'first-use');
  assert.equal(await ledger.markUsed('d', 400, 50), 'full', 'nothing has expired yet');
  assert.equal(await ledger.markUsed('a', 100, 50), 'replayed', 'the live entries are all still there');
  assert.equal(await ledger.markUsed('d', 400, 150), 'first-use', 'a expired at 100 and made room');
  assert.equal(ledger.size, 3);
  assert.equal(ledger.purge(1000), 3);
  assert.equal(ledger.size, 0);
  assert.throws(() => new MemoryHandleLedger({ capacity: 0 }), RangeError);
});
