/**
 * @module Gateway instances on one PostgreSQL: an id is held by one live process at a time, a survivor finds a dead
 * instance (silent, its lock free) and records the death once, a slow one that still holds its lock is not dead,
 * and the dead instance's open questions are abandoned with the audit naming it.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { Transition } from '../../questions/question.js';
import { makeQuestion } from '../testing/question-fixtures.js';
import { isQuestionStoreError } from '../store-error.js';
import { joinInstances } from './pg-instances.js';
import { probePostgresStore } from './pg-probe.js';
import { killHard, spawnInstance } from './testing/spawn-instance.js';
import { openPostgresQuestionStore } from './pg-question-store.js';
import { freshSchema, pgSkipReason, requireTestPgUrl, withTestClient, testPgUrlNamed } from './testing/pg-test-database.js';

const DEAD_AFTER_MS = 300;
const deliver: Transition = { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' } };

/** A fresh schema with the store's tables in it; `body` runs with its name. */
async function withSchema(body: (schema: string) => Promise<void>): Promise<void> {
  const { schema, dispose } = freshSchema();
  const store = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema, poolSize: 2 });
  await store.close();
  try {
    await body(schema);
  } finally {
    await dispose();
  }
}

async function cutConnectionsOf(name: string): Promise<number> {
  return withTestClient(async (client) => (await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name])).rowCount ?? 0);
}

/** Waits until `ms` have passed on the server's clock too (heartbeats are stamped by the server). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('PostgreSQL instances', { skip: pgSkipReason ?? false }, () => {
  test('an id is held by one live gateway at a time; once it leaves, the id can join again', async () => {
    await withSchema(async (schema) => {
      const first = await joinInstances({ url: requireTestPgUrl(), schema, id: 'gw-1', deadAfterMs: DEAD_AFTER_MS });
      await assert.rejects(joinInstances({ url: requireTestPgUrl(), schema, id: 'gw-1', deadAfterMs: DEAD_AFTER_MS }), (error) => isQuestionStoreError(error, 'instance-taken'));
      await first.leave();
      const again = await joinInstances({ url: requireTestPgUrl(), schema, id: 'gw-1', deadAfterMs: DEAD_AFTER_MS });
      assert.deepEqual((await again.list()).map((i) => [i.id, i.state]), [['gw-1', 'up']]);
      await again.leave();
    });
  });

  test('an id is held per schema: two deployments on two schemas of one database may both have a gw-1', async () => {
    await withSchema(async (one) => {
      await withSchema(async (other) => {
        const first = await joinInstances({ url: requireTestPgUrl(), schema: one, id: 'gw-1', deadAfterMs: DEAD_AFTER_MS });
        const second = await joinInstances({ url: requireTestPgUrl(), schema: other, id: 'gw-1', deadAfterMs: DEAD_AFTER_MS });
        // Seen from another instance of each schema: that schema's gw-1 is alive; an id nobody holds there is gone.
        const peerOfFirst = await joinInstances({ url: requireTestPgUrl(), schema: one, id: 'gw-2', deadAfterMs: DEAD_AFTER_MS });
        const peerOfSecond = await joinInstances({ url: requireTestPgUrl(), schema: other, id: 'gw-2', deadAfterMs: DEAD_AFTER_MS });
        assert.equal(await peerOfFirst.isGone('gw-1'), false);
        assert.equal(await peerOfSecond.isGone('gw-1'), false);
        assert.equal(await first.isGone('gw-1'), false, 'an instance asked about itself is not gone');
        await first.leave();
        assert.equal(await peerOfFirst.isGone('gw-1'), true, 'gone once it left, in its schema only');
        assert.equal(await peerOfSecond.isGone('gw-1'), false);
        for (const instance of [second, peerOfFirst, peerOfSecond]) await instance.leave();
      });
    });
  });

  test('a gateway killed with SIGKILL is found dead once it has been silent for deadAfter, by one survivor only', async () => {
    await withSchema(async (schema) => {
      const doomed = await spawnInstance(requireTestPgUrl(), schema, 'gw-doomed', DEAD_AFTER_MS);
      const a = await joinInstances({ url: requireTestPgUrl(), schema, id: 'gw-a', deadAfterMs: DEAD_AFTER_MS });
      const b = await joinInstances({ url: requireTestPgUrl(), schema, id: 'gw-b', deadAfterMs: DEAD_AFTER_MS });
      try {
        await pause(DEAD_AFTER_MS * 2);
        assert.deepEqual(await a.sweep(), [], 'nobody is silent: the doomed gateway heartbeats');
        await killHard(doomed);
        await pause(DEAD_AFTER_MS * 2);
        const [byA, byB] = await Promise.all([a.sweep(), b.sweep()]);
        assert.deepEqual([...byA, ...byB], ['gw-doomed'], 'found dead once');
        const states = Object.fromEntries((await a.list()).map((i) => [i.id, i.state]));
        assert.deepEqual(states, { 'gw-doomed': 'dead', 'gw-a': 'up', 'gw-b': 'up' });
      } finally {
        await killHard(doomed);
        await a.leave();
        await b.leave();
      }
    });
  });

  test('check\'s probe lists the instances with their state and ages, writing nothing', async () => {
    await withSchema(async (schema) => {
      const a = await joinInstances({ url: requireTestPgUrl(), schema, id: 'gw-a', deadAfterMs: DEAD_AFTER_MS });
      try {
        const report = await probePostgresStore({ url: requireTestPgUrl(), schema });
        assert.deepEqual(report.instances?.map((i) => [i.id, i.state]), [['gw-a', 'up']]);
        assert.ok((report.instances?.[0]?.silentSeconds ?? -1) >= 0);
      } finally {
        await a.leave();
      }
      const after = await probePostgresStore({ url: requireTestPgUrl(), schema });
      assert.deepEqual(after.instances?.map((i) => [i.id, i.state]), [['gw-a', 'left']]);
    });
  });

  test('a silent gateway that still holds its lock is slow, not dead', async () => {
    await withSchema(async (schema) => {
      // Its heartbeat is set back by hand: the process is alive (its connection and lock are there), only quiet.
      const slow = await joinInstances({ url: requireTestPgUrl(), schema, id: 'gw-slow', deadAfterMs: 60_000 });
      const a = await joinInstances({ url: requireTestPgUrl(), schema, id: 'gw-a', deadAfterMs: DEAD_AFTER_MS });
      try {
        await withTestClient((client) => client.query(`UPDATE "${schema}".instances SET heartbeat_at = now() - interval '1 hour' WHERE id = 'gw-slow'`));
        assert.deepEqual(await a.sweep(), []);
        assert.equal((await a.list()).find((i) => i.id === 'gw-slow')?.state, 'up');
      } finally {
        await slow.leave();
        await a.leave();
      }
    });
  });

  test('the dead gateway\'s open questions are abandoned by the survivor, the audit naming the instance; the others\' stay open', async () => {
    await withSchema(async (schema) => {
      const doomedStore = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema, owner: 'gw-doomed', poolSize: 2 });
      const survivorStore = await openPostgresQuestionStore({ url: requireTestPgUrl(), schema, owner: 'gw-a', poolSize: 2 });
      const doomed = await spawnInstance(requireTestPgUrl(), schema, 'gw-doomed', DEAD_AFTER_MS);
      const survivor = await joinInstances({ url: requireTestPgUrl(), schema, id: 'gw-a', deadAfterMs: DEAD_AFTER_MS });
      try {
        const lost = makeQuestion();
        const kept = makeQuestion();
        await doomedStore.create(lost, { actor: 'gateway', action: 'created' });
        await doomedStore.transition(lost.id, deliver);
        await survivorStore.create(kept, { actor: 'gateway', action: 'created' });
        await killHard(doomed);
        await pause(DEAD_AFTER_MS * 2);
        for (const dead of await survivor.sweep()) await survivorStore.abandonOpen(`instance ${dead} died`, dead);
        assert.equal((await survivorStore.get(lost.id))?.state, 'abandoned');
        const trail = await survivorStore.auditTrail(lost.id);
        assert.match(JSON.stringify(trail.at(-1)), /instance gw-doomed died/);
        assert.equal((await survivorStore.get(kept.id))?.state, 'pending', 'the survivor\'s own question is untouched');
      } finally {
        await killHard(doomed);
        await survivor.leave();
        await doomedStore.close();
        await survivorStore.close();
      }
    });
  });
});

describe('PostgreSQL instances: a lost connection', { skip: pgSkipReason ?? false }, () => {
  test('an instance whose own connection drops joins again on a new one, so it is not taken for dead', async () => {
    await withSchema(async (schema) => {
      const name = `sb-blip-${process.pid}`;
      const blip = await joinInstances({ url: testPgUrlNamed(name), schema, id: 'gw-blip', deadAfterMs: DEAD_AFTER_MS });
      const a = await joinInstances({ url: requireTestPgUrl(), schema, id: 'gw-a', deadAfterMs: DEAD_AFTER_MS });
      try {
        assert.equal(await cutConnectionsOf(name), 1);
        await pause(DEAD_AFTER_MS * 2);
        assert.deepEqual(await a.sweep(), [], 'it heartbeats again on a new connection');
        assert.equal((await a.list()).find((i) => i.id === 'gw-blip')?.state, 'up');
      } finally {
        await blip.leave();
        await a.leave();
      }
    });
  });
});
