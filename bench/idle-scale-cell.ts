/**
 * @module Bench cell 6 (issue 15, `--targets idle-10k`): a fresh `switchboard serve` (shared mode, the echo upstream) holding N idle host
 * sessions; the gateway process's own RSS and V8 heap before and after opening them, per session.
 */

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { openIdleSessions } from './idle-phase.js';
import type { IdleSpec } from './idle-phase.js';
import { median } from './stats.js';
import { processRss } from './proc-tree.js';
import { startTarget, type RunningTarget } from './spawn-target.js';
import { echoArgs, type TargetContext } from './targets.js';

/** The name `--targets` gives the cell. */
export const IDLE_SCALE = 'idle-10k';

/** Issue 15's goal: at most this much gateway RSS per idle host session. */
export const PER_SESSION_GOAL_BYTES = 8 * 1024;

/** What cell 6 opens and how: the idle phase's own spec (its settle pause comes before each sample). */
export type IdleScaleSpec = IdleSpec;

/** The gateway process alone at one moment. */
export interface GatewayMemory {
  /** VmRSS read as it is (median of three reads). */
  rssBytes: number;
  /** VmRSS right after two forced full collections (the heap probe). */
  rssCollectedBytes: number;
  /** process.memoryUsage() after those collections. */
  heapUsedBytes: number;
  /** The V8 heap's reserved size (used or not) after them. */
  heapTotalBytes: number;
  /** Its new space (the young generation, which grows under load and is not per session). */
  newSpaceBytes: number;
  externalBytes: number;
  arrayBuffersBytes: number;
}

export interface IdleScaleFigures {
  requested: number;
  opened: number;
  failedOpens: number;
  firstError?: string;
  stoppedEarly?: string;
  openSeconds: number;
  before: GatewayMemory;
  after: GatewayMemory;
}

export type IdleScaleCell = { ran: IdleScaleFigures } | { failed: string };

interface ProbeReport {
  heapUsed: number;
  heapTotal: number;
  spaces: Record<string, { size: number; used: number }>;
  external: number;
  arrayBuffers: number;
  collected: boolean;
}

const PROBE = pathToFileURL(resolve(import.meta.dirname, 'heap-probe.mjs')).href;

/** Asks the probe in `pid` to collect garbage and report; waits for its file. */
async function probe(pid: number, file: string): Promise<ProbeReport> {
  await rm(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 50) {
    try {
      const report = JSON.parse(await readFile(file, 'utf8')) as ProbeReport;
      if (!report.collected) throw new Error('the gateway ran without --expose-gc');
      return report;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await sleep(50);
    }
  }
  throw new Error('the heap probe did not answer within 10 s');
}

async function sample(pid: number, file: string, settleMs: number): Promise<GatewayMemory> {
  await sleep(settleMs);
  const reads: number[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await sleep(200);
    reads.push(processRss(pid));
  }
  const report = await probe(pid, file);
  await sleep(200);
  return { rssBytes: median(reads), rssCollectedBytes: processRss(pid), heapUsedBytes: report.heapUsed, heapTotalBytes: report.heapTotal, newSpaceBytes: report.spaces.new_space?.size ?? 0, externalBytes: report.external, arrayBuffersBytes: report.arrayBuffers };
}

async function startGateway(context: TargetContext, sessions: number, probeFile: string): Promise<RunningTarget> {
  const dir = join(context.tmpDir, IDLE_SCALE);
  await mkdir(dir, { recursive: true });
  const configPath = join(dir, 'switchboard.yaml');
  const cap = sessions + 100; // the defaults (10,000 in all, 1,000 per principal) would turn sessions away
  // JSON strings are valid YAML scalars, so every path is quoted safely.
  const yaml = [
    'listen: "127.0.0.1:0"',
    'http:',
    `  maxSessions: ${cap}`,
    `  maxSessionsPerPrincipal: ${cap}`,
    'upstreams:',
    '  echo:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${JSON.stringify(echoArgs(context.repoRoot))}`,
    '    sharing: shared',
    '',
  ].join('\n');
  await writeFile(configPath, yaml);
  return startTarget({
    command: process.execPath,
    args: ['--expose-gc', '--import', PROBE, join(context.repoRoot, 'bin', 'switchboard.mjs'), 'serve', '--config', configPath, '--listen', '127.0.0.1:0'],
    cwd: context.repoRoot,
    env: { BENCH_HEAP_PROBE_FILE: probeFile },
    url: /Switchboard listening on (http:\/\/\S+\/mcp)/,
    startTimeoutMs: context.startTimeoutMs,
  });
}

/** Runs cell 6: one warm-up session first (so what the first session loads is in the baseline), then `spec.sessions` more, left idle. */
export async function runIdleScaleCell(context: TargetContext, spec: IdleScaleSpec, log: (message: string) => void): Promise<IdleScaleCell> {
  const probeFile = join(context.tmpDir, `${IDLE_SCALE}-probe.json`);
  let gateway: RunningTarget | undefined;
  try {
    gateway = await startGateway(context, spec.sessions + 1, probeFile);
    const warm = await openIdleSessions(gateway.url, { ...spec, sessions: 1, concurrency: 1 });
    if (warm.sessions.length === 0) throw new Error(`warm-up session: ${warm.firstError ?? warm.stoppedEarly ?? 'failed'}`);
    const before = await sample(gateway.pid, probeFile, spec.settleMs);
    const started = performance.now();
    const opened = await openIdleSessions(gateway.url, spec);
    const openSeconds = (performance.now() - started) / 1000;
    if (opened.sessions.length === 0) throw new Error(opened.firstError ?? opened.stoppedEarly ?? 'no session opened');
    const after = await sample(gateway.pid, probeFile, spec.settleMs);
    const exit = gateway.exitStatus();
    if (exit !== undefined) throw new Error(`the gateway ${exit}`);
    const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
    log(
      `${IDLE_SCALE}: ${opened.sessions.length} idle sessions in ${openSeconds.toFixed(1)} s; gateway, before → after: RSS ${mb(before.rssCollectedBytes)} → ${mb(after.rssCollectedBytes)} MB, ` +
        `heap total ${mb(before.heapTotalBytes)} → ${mb(after.heapTotalBytes)}, used ${mb(before.heapUsedBytes)} → ${mb(after.heapUsedBytes)}, new space ${mb(before.newSpaceBytes)} → ${mb(after.newSpaceBytes)}`,
    );
    return {
      ran: {
        requested: spec.sessions,
        opened: opened.sessions.length,
        failedOpens: opened.failedOpens,
        ...(opened.firstError === undefined ? {} : { firstError: opened.firstError }),
        ...(opened.stoppedEarly === undefined ? {} : { stoppedEarly: opened.stoppedEarly }),
        openSeconds,
        before,
        after,
      },
    };
  } catch (error) {
    const failed = error instanceof Error ? error.message : String(error);
    log(`${IDLE_SCALE}: failed: ${failed}`);
    return { failed };
  } finally {
    await gateway?.stop();
  }
}
