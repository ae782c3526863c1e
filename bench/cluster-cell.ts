/**
 * @module Bench cluster cell: three `switchboard serve` instances and one, each on a fresh PostgreSQL schema behind
 * haproxy (test/e2e/harness/cluster.ts), under the same echo load; then the operator-answer latency on the three, same
 * instance against other instance, and what each question cost the database. Skipped, with the reason, without
 * PostgreSQL or haproxy.
 */

import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import { clusterSkipReason, startCluster, type RunningCluster } from '../test/e2e/harness/cluster.js';
import { incidentDeskStdio } from '../test/e2e/harness/upstreams.js';
import { measureAnswerLatency, type LatencyRun } from './answer-latency.js';
import { runLoadRounds, type LoadSubject } from './load-rounds.js';
import type { BenchOptions } from './options.js';
import { PgCounters, type CounterSnapshot } from './pg-counters.js';
import { processTree, treeCpuMicros } from './proc-tree.js';
import { questionCost, type QuestionCost } from './question-cost.js';
import { spread, type Spread } from './stats.js';
import { summarize } from './summary.js';
import type { LoadSummary, Outcome } from './table.js';
import { echoArgs } from './targets.js';

export interface ClusterLoad {
  instances: number;
  single: Outcome<LoadSummary>;
  /** At N sessions; its `callsVsDirect` (three instances only) is the median per-round ratio to one instance. */
  multi: Outcome<LoadSummary>;
}

export interface AnswerLatency {
  same: Spread;
  other: Spread;
  failures: string[];
}

export interface ClusterFigures {
  postgres: string;
  /** Load rounds run. */
  rounds: number;
  /** One instance, then three. */
  loads: ClusterLoad[];
  latency: Outcome<AnswerLatency>;
  cost: Outcome<QuestionCost>;
  /** How long the cell took, in seconds. */
  seconds: number;
}

export type ClusterCell = { skipped: string } | { ran: ClusterFigures };

const INSTANCES = 3;
const PG_URL = process.env['SWITCHBOARD_TEST_PG_URL'] ?? '';

function reason(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
}

function clusterName(instances: number): string {
  return `cluster ×${instances}`;
}

function subjectOf(cluster: RunningCluster): LoadSubject {
  const pids = (): number[] => [cluster.balancerPid, ...cluster.members.map((member) => member.process.pid)];
  return {
    name: clusterName(cluster.members.length),
    url: cluster.url,
    cpuMicros: () => pids().reduce((sum, pid) => sum + treeCpuMicros(pid), 0),
    processes: () => pids().reduce((sum, pid) => sum + processTree(pid).length, 0),
    exitStatus: () => cluster.members.find((member) => member.process.hasExited())?.id.concat(' exited'),
  };
}

function start(instances: number, repoRoot: string): Promise<RunningCluster> {
  return startCluster({
    instances,
    upstreams: {
      echo: { command: process.execPath, args: echoArgs(repoRoot), sharing: 'shared' },
      desk: incidentDeskStdio({ sharing: 'shared' }),
    },
    idPrefix: `bench${instances}`,
    logLevel: 'warn',
    // The default of `cluster.deadAfter`: a heartbeat every 5 s per instance.
    deadAfter: '15s',
  });
}

async function measureLoads(repoRoot: string, options: BenchOptions, log: (message: string) => void): Promise<ClusterLoad[]> {
  const clusters: RunningCluster[] = [];
  try {
    for (const instances of [1, INSTANCES]) {
      clusters.push(await start(instances, repoRoot));
      log(`${clusterName(instances)}: started`);
    }
    const logs = await runLoadRounds(clusters.map(subjectOf), options, options.clusterRounds, log);
    const one = logs.get(clusterName(1));
    return [1, INSTANCES].map((instances) => {
      const own = logs.get(clusterName(instances));
      if (!own) return { instances, single: { failed: 'not started' }, multi: { failed: 'not started' } };
      const base = instances === 1 ? undefined : one;
      return { instances, single: summarize(own.single, base?.single), multi: summarize(own.multi, base?.multi) };
    });
  } finally {
    await Promise.all(clusters.map((cluster) => cluster.stop()));
  }
}

/** Reads the counters until two reads a moment apart agree (the exiting backends have flushed), bounded. */
async function settledSnapshot(counters: PgCounters): Promise<CounterSnapshot> {
  let last = await counters.snapshot();
  for (let attempt = 0; attempt < 20; attempt++) {
    await sleep(250);
    const next = await counters.snapshot();
    if (JSON.stringify(next.tables) === JSON.stringify(last.tables)) return next;
    last = next;
  }
  return last;
}

async function measureAnswers(repoRoot: string, options: BenchOptions, log: (message: string) => void): Promise<Pick<ClusterFigures, 'latency' | 'cost' | 'postgres'>> {
  const cluster = await start(INSTANCES, repoRoot);
  let counters: PgCounters | undefined;
  try {
    counters = await PgCounters.open(PG_URL, cluster.schema);
    const postgres = await counters.serverVersion();
    log(`${clusterName(INSTANCES)}: started on a fresh schema; timing operator answers (${options.clusterSamples} of each kind)`);
    const before = await counters.snapshot();
    let run: LatencyRun;
    try {
      run = await measureAnswerLatency(cluster, { samples: options.clusterSamples, warmup: options.quick ? 6 : 12 });
    } catch (error) {
      return { postgres, latency: { failed: reason(error) }, cost: { failed: reason(error) } };
    }
    const atEnd = await counters.snapshot();
    const notifications = counters.notifications;
    // Exiting, each backend flushes its table statistics.
    await Promise.all(cluster.members.map((member) => member.terminate()));
    const flushed = await settledSnapshot(counters);
    run.failures.forEach((failure) => log(`answer latency: ${failure}`));
    const latency: Outcome<AnswerLatency> =
      run.same.length > 0 && run.other.length > 0 ? { ok: { same: spread(run.same), other: spread(run.other), failures: run.failures } } : { failed: run.failures[0] ?? 'no sample' };
    return { postgres, latency, cost: { ok: questionCost(before, atEnd, flushed, notifications, run.questions) } };
  } finally {
    await counters?.close();
    await cluster.stop();
  }
}

export async function runClusterCell(repoRoot: string, options: BenchOptions, log: (message: string) => void): Promise<ClusterCell> {
  if (clusterSkipReason !== undefined) return { skipped: clusterSkipReason };
  const started = performance.now();
  let loads: ClusterLoad[];
  try {
    loads = await measureLoads(repoRoot, options, log);
  } catch (error) {
    const failed = `start: ${reason(error)}`;
    log(`cluster cell: ${failed}`);
    loads = [1, INSTANCES].map((instances) => ({ instances, single: { failed }, multi: { failed } }));
  }
  let answers: Pick<ClusterFigures, 'latency' | 'cost' | 'postgres'>;
  try {
    answers = await measureAnswers(repoRoot, options, log);
  } catch (error) {
    answers = { postgres: 'unknown', latency: { failed: reason(error) }, cost: { failed: reason(error) } };
  }
  return { ran: { ...answers, rounds: options.clusterRounds, loads, seconds: (performance.now() - started) / 1000 } };
}
