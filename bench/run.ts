/** @module Bench orchestrator (`npm run bench`): runs every target side by side, then the cluster cell, prints the markdown results, `--write` puts them in docs/benchmarks.md. */

import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runClusterCell, type ClusterCell } from './cluster-cell.js';
import { runElicitationCells, selectedCells, type ElicitationFigures } from './elicitation-cell.js';
import { renderElicitationSection } from './elicitation-table.js';
import { renderClusterSection } from './cluster-table.js';
import { runIdlePhase } from './idle-phase.js';
import { IDLE_SCALE, runIdleScaleCell, type IdleScaleCell } from './idle-scale-cell.js';
import { renderIdleScaleSection } from './idle-scale-table.js';
import { runLoadRounds, type LoadSubject } from './load-rounds.js';
import { parseOptions, USAGE, type BenchOptions } from './options.js';
import { processTree, treeCpuMicros } from './proc-tree.js';
import { startTarget, type RunningTarget } from './spawn-target.js';
import { summarize } from './summary.js';
import { renderReport, type TargetReport } from './table.js';
import { switchboard, TARGETS, type TargetContext, type TargetDefinition } from './targets.js';
import { CLUSTER_RESULTS, ELICITATION_RESULTS, IDLE_SCALE_RESULTS, writeResults } from './write-doc.js';

const repoRoot = resolve(fileURLToPath(import.meta.url), '..', '..');

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function slug(name: string): string {
  return name.replace(/\s+/g, '-');
}

/** The name `--targets` gives the cluster cell. */
const CLUSTER = 'cluster';

/** The names `--targets` gives the elicitation cells: all four, or one. */
const ELICITATION = ['elicitation', 'elicitation-1', 'elicitation-2', 'elicitation-3', 'elicitation-4'];

/** The targets to measure, whether the cluster cell and cell 6 run, and which elicitation cells do. */
function selectTargets(options: BenchOptions): { targets: TargetDefinition[]; cluster: boolean; idleScale: boolean; elicitation: Set<number> } {
  const all = options.baseline === undefined ? TARGETS : [...TARGETS, switchboard('per-session', resolve(options.baseline)), switchboard('shared', resolve(options.baseline))];
  if (options.targets.length === 0) return { targets: all, cluster: true, idleScale: true, elicitation: selectedCells(['elicitation']) };
  const wanted = new Set(options.targets.map(slug));
  const cells = [CLUSTER, IDLE_SCALE, ...ELICITATION];
  const unknown = [...wanted].filter((name) => !cells.includes(name) && !all.some((target) => slug(target.name) === name));
  if (unknown.length > 0) throw new Error(`unknown target(s) ${unknown.join(', ')}; known: ${[...all.map((t) => slug(t.name)), ...cells].join(', ')}`);
  return { targets: all.filter((target) => wanted.has(slug(target.name))), cluster: wanted.has(CLUSTER), idleScale: wanted.has(IDLE_SCALE), elicitation: selectedCells([...wanted]) };
}

async function measureLoad(targets: TargetDefinition[], context: TargetContext, options: BenchOptions, reports: Map<string, TargetReport>): Promise<void> {
  const running = new Map<string, RunningTarget>();
  try {
    // The targets start side by side; they are measured in their listed order all the same.
    const started = await Promise.all(
      targets.map(async (target) => {
        try {
          const server = await startTarget(await target.spawnSpec(context));
          log(`${target.name}: started`);
          return [target.name, server] as const;
        } catch (error) {
          const failed = `start: ${reason(error)}`;
          log(`${target.name}: failed to ${failed}`);
          reports.set(target.name, { name: target.name, single: { failed }, multi: { failed } });
          return undefined;
        }
      }),
    );
    for (const entry of started) if (entry) running.set(entry[0], entry[1]);
    const subjects: LoadSubject[] = [...running].map(([name, target]) => ({
      name,
      url: target.url,
      cpuMicros: () => treeCpuMicros(target.pid),
      processes: () => processTree(target.pid).length,
      exitStatus: () => target.exitStatus(),
    }));
    const phases = await runLoadRounds(subjects, options, options.rounds, log);
    const direct = phases.get('direct');
    for (const [name, logs] of phases) {
      reports.set(name, { name, single: summarize(logs.single, direct?.single), multi: summarize(logs.multi, direct?.multi) });
    }
  } finally {
    await Promise.all([...running.values()].map((target) => target.stop()));
  }
}

async function measureIdle(targets: TargetDefinition[], context: TargetContext, options: BenchOptions, reports: Map<string, TargetReport>): Promise<void> {
  for (const target of targets) {
    const report = reports.get(target.name) ?? { name: target.name };
    reports.set(target.name, report);
    let running: RunningTarget | undefined;
    try {
      running = await startTarget(await target.spawnSpec(context));
      const idle = await runIdlePhase(running.url, running.pid, {
        sessions: options.idleSessions,
        concurrency: 4,
        timeoutMs: options.phaseTimeoutMs,
        requestTimeoutMs: options.requestTimeoutMs,
        minFreeBytes: options.minFreeMb * 2 ** 20,
        settleMs: 2000,
      });
      report.idle = { ok: idle };
      log(`${target.name}: ${idle.opened} idle sessions, ${(idle.rssBytes / 2 ** 20).toFixed(1)} MB RSS over ${idle.processes} processes`);
    } catch (error) {
      report.idle = { failed: reason(error) };
      log(`${target.name}: idle phase failed: ${reason(error)}`);
    } finally {
      await running?.stop();
    }
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv, process.env);
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { targets, cluster, idleScale, elicitation } = selectTargets(options);
  const tmpDir = await mkdtemp(join(tmpdir(), 'switchboard-bench-'));
  const context: TargetContext = { repoRoot, tmpDir, startTimeoutMs: options.startTimeoutMs };
  const reports = new Map<string, TargetReport>();
  const load = loadavg().map((n) => n.toFixed(2)).join(' ');
  let cell: ClusterCell = { skipped: `not selected (--targets ${options.targets.join(',')})` };
  let asking: ElicitationFigures | undefined;
  let scale: IdleScaleCell | undefined;
  try {
    if (targets.length > 0) {
      log(`targets: ${targets.map((target) => target.name).join(', ')}`);
      await measureLoad(targets, context, options, reports);
      await measureIdle(targets, context, options, reports);
    }
    if (idleScale) {
      log(`cell 6 (${IDLE_SCALE}): ${options.idleScaleSessions} idle sessions`);
      scale = await runIdleScaleCell(
        context,
        {
          sessions: options.idleScaleSessions,
          concurrency: 8,
          timeoutMs: options.phaseTimeoutMs,
          requestTimeoutMs: options.requestTimeoutMs,
          minFreeBytes: options.minFreeMb * 2 ** 20,
          settleMs: 2000,
        },
        log,
      );
    }
    if (elicitation.size > 0) {
      log(`elicitation cells ${[...elicitation].join(', ')}`);
      asking = await runElicitationCells(elicitation, context, options, options.profileDir === undefined ? undefined : resolve(options.profileDir), log);
    }
    if (cluster) {
      log('cluster cell');
      cell = await runClusterCell(repoRoot, options, log);
      if ('skipped' in cell) log(`cluster cell skipped: ${cell.skipped}`);
    }
  } finally {
    await rm(tmpDir, { recursive: true, force: true });
  }
  const header = {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    command: ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
    node: process.version,
    machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, load average at start ${load}`,
    settings: `${options.rounds} round(s); @1: ${options.calls1} calls; @${options.concurrency}: ${options.concurrency}×${options.callsPerSession} calls; warm-up ${options.warmup} calls per phase; ${options.idleSessions} idle sessions`,
    concurrency: options.concurrency,
    calls1: options.calls1,
    callsPerSession: options.callsPerSession,
    idleSessions: options.idleSessions,
  };
  const docPath = join(repoRoot, 'docs', 'benchmarks.md');
  if (targets.length > 0) {
    const table = renderReport(header, targets.map((target) => reports.get(target.name) ?? { name: target.name }));
    process.stdout.write(table);
    if (options.write) {
      await writeResults(docPath, table);
      log('wrote the results to docs/benchmarks.md');
    }
  }
  if (scale) {
    const section = renderIdleScaleSection(header, scale);
    process.stdout.write(`${targets.length > 0 ? '\n' : ''}### Idle sessions at scale (cell 6)\n\n${section}`);
    if (options.write) {
      await writeResults(docPath, section, IDLE_SCALE_RESULTS);
      log('wrote cell 6 to docs/benchmarks.md');
    }
  }
  if (asking) {
    const section = renderElicitationSection(header, asking);
    process.stdout.write(`${targets.length > 0 ? '\n' : ''}### Elicitation cells\n\n${section}\n`);
    if (options.write) {
      await writeResults(docPath, section, ELICITATION_RESULTS);
      log('wrote the elicitation cells to docs/benchmarks.md');
    }
  }
  if (!cluster && targets.length === 0) return;
  const clusterSection = renderClusterSection(header, cell);
  process.stdout.write(`${targets.length > 0 ? '\n' : ''}### Cluster cell\n\n${clusterSection}`);
  // A skipped cell leaves the figures of the last run that measured it.
  if (options.write && 'ran' in cell) {
    await writeResults(docPath, clusterSection, CLUSTER_RESULTS);
    log('wrote the cluster cell to docs/benchmarks.md');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${reason(error)}\n`);
  process.exitCode = 1;
});
