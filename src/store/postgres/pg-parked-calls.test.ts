/** @module Tests of the parked-call records on a real PostgreSQL: a park recorded, its handle used once, a call ended or its instance gone, the purge. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { HandlePayload } from '../../bridge/handle-payload.js';
import { pgSkipReason, withTestClient } from './testing/pg-test-database.js';
import { withTwoInstances } from './testing/two-instances.js';

let next = 0;
function payload(overrides: Partial<HandlePayload> = {}): HandlePayload {
  next += 1;
  const now = Date.now();
  return {
    version: 1,
    kind: 'parked',
    id: `handle-${process.pid}-${next}`.padEnd(22, 'x').slice(0, 22),
    upstream: 'desk',
    principal: 'p'.repeat(43),
    method: 'tools/call',
    paramsDigest: 'd'.repeat(43),
    issuedAt: now,
    expiresAt: now + 60_000,
    ...overrides,
  };
}

const fail = (error: unknown) => assert.fail(String(error));

describe('PostgreSQL: parked-call records', { skip: pgSkipReason }, () => {
  test('a park is recorded; its handle is used once, on any instance: the second use is replayed', async () => {
    await withTwoInstances(async (a, b) => {
      const onA = a.parkedCalls(fail);
      const onB = b.parkedCalls(fail);
      const parked = payload();
      onA.parked(parked);
      // Used at once: the use waits for the record being written.
      assert.equal(await onA.markUsed(parked.id), 'first-use');
      assert.equal(await onB.markUsed(parked.id), 'replayed');
      assert.deepEqual(await onB.counts(), { parked: 0, resumed: 1, gone: 0 });
    });
  });

  test('a call that ended unused is gone; an instance gone takes only its own parked calls with it', async () => {
    await withTwoInstances(async (a, b) => {
      const onA = a.parkedCalls(fail);
      const onB = b.parkedCalls(fail);
      const [ended, heldByA, heldByB] = [payload(), payload(), payload()];
      onA.parked(ended);
      onA.parked(heldByA);
      onB.parked(heldByB);
      onA.ended(ended.id);
      // The records are written in the background: wait until all three are in.
      for (let tries = 0; JSON.stringify(await onA.counts()) !== JSON.stringify({ parked: 2, resumed: 0, gone: 1 }); tries += 1) {
        assert.ok(tries < 200, 'the two parks and the ended call are recorded');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(await onB.goneOf('gw-a'), 1);
      assert.deepEqual(await onB.counts(), { parked: 1, resumed: 0, gone: 2 });
      // A gone record is not a replay: the instance asked answers `gone` itself, as it does not hold the call.
      assert.equal(await onB.markUsed(heldByA.id), 'first-use');
      assert.deepEqual(await onB.counts(), { parked: 1, resumed: 0, gone: 2 });
    });
  });

  test('records whose handle expired more than an hour ago are purged; newer ones stay', async () => {
    await withTwoInstances(async (a, _b, schema) => {
      const onA = a.parkedCalls(fail);
      const old = payload({ issuedAt: Date.now() - 3 * 3_600_000, expiresAt: Date.now() - 2 * 3_600_000 });
      const recent = payload();
      onA.parked(old);
      onA.parked(recent);
      await onA.markUsed(recent.id);
      await withTestClient(async (client) => {
        for (let tries = 0; ; tries += 1) {
          const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".parked_calls`);
          if (rows[0]?.n === 2) break;
          assert.ok(tries < 100, 'both records written');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      });
      assert.equal(await onA.purge(), 1);
      assert.deepEqual(await onA.counts(), { parked: 0, resumed: 1, gone: 0 });
    });
  });
});
