/**
 * @module `serve` as one of several gateway instances on a PostgreSQL store: it joins under its id, and sweeps now and
 * then for instances that died, abandoning their open questions and running composite runs (the audit naming it) and
 * marking their parked calls gone.
 */

import type { Logger } from '../core/log.js';
import type { NormalizedConfig } from '../config/types.js';
import type { QuestionStore } from '../questions/question-store.js';
import type { RunStore } from '../composite/run-store.js';
import type { ClusterDirectory } from '../edges/http/cluster-forward.js';
import type { InstanceRecord, PgInstance } from '../store/postgres/pg-instances.js';
import { joinInstances } from '../store/postgres/pg-instances.js';
import type { PgParkedCalls } from '../store/postgres/pg-parked-calls.js';
import { CliError } from './cli-io.js';

export interface ClusterMember {
  readonly id: string;
  /** The instances recorded in the store, newest first. */
  instances(): Promise<InstanceRecord[]>;
  /** Where the other instances are, for the cluster link (their places read at most once a second each). */
  readonly directory: ClusterDirectory;
  /** Stops sweeping and leaves (recorded `left`). */
  close(): Promise<void>;
}

/** Joins the instances of the configured PostgreSQL store as `id`, and sweeps every third of `cluster.deadAfter`. */
export async function joinCluster(config: NormalizedConfig, id: string, stores: { store: QuestionStore; runs: RunStore; parkedCalls?: PgParkedCalls }, logger: Logger): Promise<ClusterMember> {
  if (config.store.kind !== 'postgres') throw new Error('joinCluster needs a PostgreSQL store');
  const { url, schema } = config.store;
  const { deadAfterMs } = config.cluster;
  let instance: PgInstance;
  try {
    const advertise = config.cluster.link?.advertise;
    instance = await joinInstances({ url, schema, id, deadAfterMs, ...(advertise === undefined ? {} : { advertise }), onError: (error) => logger.log('warn', 'the instance heartbeat failed; the next one tries again', { error: String(error) }) });
  } catch (error) {
    throw new CliError(`cannot join the gateway instances of the PostgreSQL store: ${error instanceof Error ? error.message : String(error)}`);
  }
  logger.log('info', 'joined the gateway instances of the store', { instance: id, deadAfterMs });
  // The calls it held parked before a restart under this id are gone with that process: they never come back.
  await stores.parkedCalls?.goneOf(id).catch((error: unknown) => logger.log('warn', 'could not mark the parked calls of a previous process gone', { error: String(error) }));
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = async (): Promise<void> => {
    try {
      for (const dead of await instance.sweep()) {
        const why = `gateway instance ${dead} died (silent for more than ${deadAfterMs} ms, its connection gone)`;
        const questions = await stores.store.abandonOpen(why, dead);
        const runs = await stores.runs.abandonRunning(why, dead);
        const parked = (await stores.parkedCalls?.goneOf(dead)) ?? 0;
        logger.log('warn', 'a gateway instance died: its open questions and running composite runs are abandoned, its parked calls gone', { instance: dead, questions, runs, parked });
      }
      await stores.parkedCalls?.purge();
    } catch (error) {
      logger.log('warn', 'the sweep for dead gateway instances failed; the next one tries again', { error: String(error) });
    }
  };
  const timer = setInterval(() => {
    sweeping = sweeping.then(sweep);
  }, Math.max(100, Math.floor(deadAfterMs / 3)));
  timer.unref();
  return {
    id,
    instances: () => instance.list(),
    directory: cachedDirectory(instance),
    async close() {
      clearInterval(timer);
      await sweeping;
      await instance.leave();
    },
  };
}

/** How long a place read from the store is used before it is read again. */
const PLACE_TTL_MS = 1000;

/**
 * The directory over the instances table: each instance's place read at most once a second (a forward per request
 * would otherwise cost a query each), and forgotten as soon as a failed forward finds the instance gone.
 */
function cachedDirectory(instance: PgInstance): ClusterDirectory {
  const places = new Map<string, { at: number; place: Awaited<ReturnType<ClusterDirectory['place']>> }>();
  return {
    self: instance.id,
    async place(id) {
      const now = performance.now();
      const kept = places.get(id);
      if (kept !== undefined && now - kept.at < PLACE_TTL_MS) return kept.place;
      const found = await instance.place(id);
      const place = found?.state === 'up' ? { up: true as const, ...(found.advertise === undefined ? {} : { url: found.advertise }) } : { up: false as const };
      if (places.size > 10_000) places.clear();
      places.set(id, { at: now, place });
      return place;
    },
    async peer() {
      const up = (await instance.list()).filter((record) => record.state === 'up' && record.id !== instance.id && record.advertise !== undefined);
      return up[Math.floor(Math.random() * up.length)]?.id;
    },
    async isGone(id) {
      const gone = await instance.isGone(id);
      if (gone) places.set(id, { at: performance.now(), place: { up: false } });
      return gone;
    },
  };
}
