/** @module Bench orchestrator (`npm run bench`): runs every target side by side, prints the markdown table, `--write` puts it in docs/benchmarks.md. */

import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { runIdlePhase } from './idle-phase.js';
import { runLoadPhase, type PhaseSpec } from './load-phase.js';
import { parseOptions, USAGE, type BenchOptions } from './options.js';
import { memAvailableBytes, processTree, treeCpuMicros } from './proc-tree.js';
import { startTarget, type RunningTarget } from './spawn-target.js';
import { emptyPhaseLog, summarize, type PhaseLog } from './summary.js';
import { renderReport, type TargetReport } from './table.js';
import { switchboard, TARGETS, type TargetContext, type TargetDefinition } from './targets.js';
import { writeResults } from './write-doc.js';

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

function selectTargets(options: BenchOptions): TargetDefinition[] {
  const all = options.baseline === undefined ? TARGETS : [...TARGETS, switchboard('per-session', resolve(options.baseline)), switchboard('shared', resolve(options.baseline))];
  if (options.targets.length === 0) return all;
  const wanted = new Set(options.targets.map(slug));
  const unknown = [...wanted].filter((name) => !all.some((target) => slug(target.name) === name));
  if (unknown.length > 0) throw new Error(`unknown target(s) ${unknown.join(', ')}; known: ${all.map((t) => slug(t.name)).join(', ')}`);
  return all.filter((target) => wanted.has(slug(target.name)));
}

async function measureLoad(targets: TargetDefinition[], context: TargetContext, options: BenchOptions, reports: Map<string, TargetReport>): Promise<void> {
  const running = new Map<string, RunningTarget>();
  const phases = new Map<string, { single: PhaseLog; multi: PhaseLog }>();
  try {
    for (const target of targets) {
      try {
        running.set(target.name, await startTarget(await target.spawnSpec(context)));
        phases.set(target.name, { single: emptyPhaseLog(), multi: emptyPhaseLog() });
        log(`${target.name}: started`);
      } catch (error) {
        const failed = `start: ${reason(error)}`;
        log(`${target.name}: failed to ${failed}`);
        reports.set(target.name, { name: target.name, single: { failed }, multi: { failed } });
      }
    }
    const base = { warmupCalls: options.warmup, timeoutMs: options.phaseTimeoutMs, requestTimeoutMs: options.requestTimeoutMs };
    const specs: ['single' | 'multi', PhaseSpec][] = [
      ['single', { ...base, sessions: 1, callsPerSession: options.calls1 }],
      ['multi', { ...base, sessions: options.concurrency, callsPerSession: options.callsPerSession }],
    ];
    const names = [...running.keys()];
    for (let round = 0; round < options.rounds; round++) {
      // Rotate the order each round so no target always runs first or last.
      const order = names.map((_, i) => names[(i + round) % names.length] as string);
      for (const name of order) {
        const target = running.get(name) as RunningTarget;
        const logs = phases.get(name);
        if (target.exitStatus() !== undefined && logs && logs.single.failures.length + logs.multi.failures.length > 0) continue; // death already reported
        for (const [key, spec] of specs) {
          const phaseLog = phases.get(name)?.[key] as PhaseLog;
          try {
            if (memAvailableBytes() < options.minFreeMb * 2 ** 20) throw new Error(`skipped: machine MemAvailable below ${options.minFreeMb} MB`);
            const result = await runLoadPhase(target.url, spec, () => treeCpuMicros(target.pid));
            phaseLog.byRound[round] = result;
            const rate = (result.calls * 1000) / result.elapsedMs;
            log(`round ${round + 1}/${options.rounds} ${name} @${spec.sessions}: ${rate.toFixed(0)} calls/s, ${(result.cpuMicros / Math.max(1, result.calls)).toFixed(0)} µs CPU/call, ${processTree(target.pid).length} processes after${result.errors ? `, ${result.errors} errors` : ''}`);
          } catch (error) {
            // A dead server explains every later failure better than "fetch failed".
            await sleep(200);
            const failure = target.exitStatus() ? `target ${target.exitStatus()}` : reason(error);
            phaseLog.failures.push(failure);
            log(`round ${round + 1}/${options.rounds} ${name} @${spec.sessions}: failed: ${failure}`);
          }
        }
      }
    }
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
  const targets = selectTargets(options);
  const tmpDir = await mkdtemp(join(tmpdir(), 'switchboard-bench-'));
  const context: TargetContext = { repoRoot, tmpDir, startTimeoutMs: options.startTimeoutMs };
  const reports = new Map<string, TargetReport>();
  const load = loadavg().map((n) => n.toFixed(2)).join(' ');
  try {
    log(`targets: ${targets.map((target) => target.name).join(', ')}`);
    await measureLoad(targets, context, options, reports);
    await measureIdle(targets, context, options, reports);
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
    idleSessions: options.idleSessions,
  };
  const table = renderReport(header, targets.map((target) => reports.get(target.name) ?? { name: target.name }));
  process.stdout.write(table);
  if (options.write) {
    await writeResults(join(repoRoot, 'docs', 'benchmarks.md'), table);
    log('wrote docs/benchmarks.md');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${reason(error)}\n`);
  process.exitCode = 1;
});
